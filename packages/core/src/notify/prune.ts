import { defineJob } from "../events/jobs.js";
import { EVENT_RETENTION_DAYS } from "../events/prune.js";
import { needsActionSql } from "../inbox/rules.js";
import type { Store } from "../store/port.js";

/** How long finished notifications, attempts and settled assignments are kept: as long as events. */
export const NOTIFY_RETENTION_DAYS = EVENT_RETENTION_DAYS;
/** Confirmation mails are counted over an hour; a day of rows is more than the limit needs. */
const CONFIRM_MAIL_KEEP_MS = 86_400_000;
const BATCH = 1_000;
const ROUNDS = 100;

/**
 * One bounded delete per table (SPEC §37). Nothing pending goes: only delivered or failed
 * notifications, attempts, and assignments whose reminders are over (all three queued, or
 * the receipt reassigned, acknowledged or no longer asking). What keeps a notification from
 * being sent twice never depends on these rows: the fan-out takes each event once and an
 * assignment counts its reminders.
 */
const STATEMENTS = [
  `delete from notifications where id in (
     select id from notifications where state <> 'pending' and finished_at < $1 limit $2) returning 1`,
  `delete from notification_attempts where id in (
     select id from notification_attempts where at < $1 limit $2) returning 1`,
  `delete from notify_assignments where artifact_id in (
     select na.artifact_id from notify_assignments na join artifacts a on a.id = na.artifact_id
      where na.assigned_at < $1
        and (na.reminded >= 3 or a.assignee is distinct from na.assignee or not ${needsActionSql("a")}
             or exists (select 1 from acknowledgements k where k.artifact_id = a.id))
      limit $2) returning 1`,
];

export async function pruneNotifications(store: Store, now: Date, signal?: AbortSignal): Promise<number> {
  const before = new Date(now.getTime() - NOTIFY_RETENTION_DAYS * 86_400_000).toISOString();
  let count = 0;
  for (const sql of STATEMENTS) {
    for (let i = 0; i < ROUNDS && !signal?.aborted; i++) {
      const rows = await store.query(sql, [before, BATCH]);
      count += rows.length;
      if (rows.length < BATCH) break;
    }
  }
  await store.query("delete from confirm_mails where sent_at < $1", [new Date(now.getTime() - CONFIRM_MAIL_KEEP_MS).toISOString()]);
  return count;
}

export const pruneNotificationsJob = defineJob({
  name: "notify.prune",
  everyMs: 3_600_000,
  run: async ({ store, now, signal }) => ({ count: await pruneNotifications(store, now(), signal) }),
});
