import { defineJob } from "./jobs.js";

/** How long events (and their attempts) are kept for `recover` and the deliveries list. */
export const EVENT_RETENTION_DAYS = 30;
const BATCH = 1_000;

/** Deletes events past the retention window that have nothing left to deliver, in bounded batches. */
export const pruneEventsJob = defineJob({
  name: "events.prune",
  everyMs: 3_600_000,
  async run({ store, now, signal }) {
    const before = new Date(now().getTime() - EVENT_RETENTION_DAYS * 86_400_000).toISOString();
    let count = 0;
    for (let i = 0; i < 100 && !signal.aborted; i++) {
      const rows = await store.query(
        `delete from events where id in (
           select e.id from events e
            where e.created_at < $1
              and not exists (select 1 from deliveries d where d.event_id = e.id and d.state = 'pending')
            limit $2)
         returning id`,
        [before, BATCH],
      );
      count += rows.length;
      if (rows.length < BATCH) break;
    }
    return { count };
  },
});
