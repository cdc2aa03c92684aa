import type { Migration } from "./types.js";

/**
 * Notifications that stay right over time (SPEC §37, ADR 0076).
 *
 * `notify_assignments` names the assignment it records (`event_id`, the `artifact.assigned`
 * event): the `assigned` and `reminder` keys carry it, so a receipt reassigned back to
 * someone notifies them again. `reminded` counts the reminders queued for that assignment,
 * so no reminder depends on an old notification row being kept; rows written before this
 * migration take the count from the reminders already queued.
 *
 * The indexes serve the retention job, which deletes finished notifications, attempts and
 * settled assignments past the retention, and `confirm_mails` (one row per confirmation
 * mail, by the SHA-256 of the lower-cased address) bounds how often one address is mailed.
 */
export const notifyRetention: Migration = {
  version: "0030_notify_retention",
  sql: `
    alter table notify_assignments add column event_id text;
    alter table notify_assignments add column reminded integer not null default 0;
    update notify_assignments na set reminded = coalesce((
      select max(split_part(n.dedupe_key, ':', 3)::int) from notifications n
       where n.artifact_id = na.artifact_id and n.trigger = 'reminder' and n.dedupe_key ~ '^reminder:[^:]+:[0-9]+$'), 0);
    create index notify_assignments_assigned_idx on notify_assignments (assigned_at);
    create index notifications_finished_idx on notifications (finished_at) where state <> 'pending';
    create index notification_attempts_at_idx on notification_attempts (at);

    create table confirm_mails (
      address_hash text not null,
      sent_at timestamptz not null
    );
    create index confirm_mails_address_idx on confirm_mails (address_hash, sent_at);
  `,
};
