import type { Migration } from "./types.js";

/**
 * The events not yet fanned out to notifications (ADR 0055) are rows of a queue of their
 * own, not `events.notified_at` (ADR 0062). Marking an event changed a column its partial
 * index's predicate reads, so every mark was a non-HOT update: the event's whole row (its
 * ~1.4 KB payload) written again with an entry in each of its indexes, once per receipt.
 * `cairn_record_event` now adds the event's id to `fanout_queue` in the write's
 * transaction, and the fan-out deletes the ids it takes in the statement that queues
 * their notifications. No foreign key: a queued id whose event was pruned meanwhile is
 * taken and dropped by the next fan-out, with no trigger on the write path.
 */
export const fanoutQueue: Migration = {
  version: "0027_fanout_queue",
  sql: `
    create table fanout_queue (event_id text primary key);
    insert into fanout_queue (event_id) select id from events where notified_at is null;
    drop index events_unnotified_idx;
    alter table events drop column notified_at;
  `,
};
