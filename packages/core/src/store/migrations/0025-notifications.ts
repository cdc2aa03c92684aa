import type { Migration } from "./types.js";

/**
 * Notifications (SPEC §27, ADRs 0055 and 0056). A user's **channels** (email, Slack, ntfy)
 * hold their target (a secret: shown masked) and a state; an email channel is `pending`
 * until the link mailed to it is followed (only the code's SHA-256 is stored).
 * `notify_settings` holds a user's triggers; no row means the defaults.
 *
 * `notifications` is the channels' outbox, claimed like `deliveries` (ADR 0015/0030):
 * `unique (channel_id, dedupe_key)` — the key names the trigger and the receipt
 * (`assigned:art_…`, `reminder:art_…:2`, `digest:2026-12-02`) — makes "one notification per
 * receipt, trigger and channel" a fact of the database, whatever number of processes fan
 * out the same event and however often one is killed. `events.notified_at` marks the
 * events already fanned out; the partial index finds the rest. Events written before this
 * migration are marked: nobody asked to be told about them.
 *
 * `notify_assignments` keeps when an artifact was last (re)assigned, from the
 * `artifact.assigned` events as they are fanned out: reminders count from it.
 *
 * `notification_attempts` is each channel's log: one row per message sent (a grouped
 * message counts once and names how many notifications it carried).
 */
export const notifications: Migration = {
  version: "0025_notifications",
  sql: `
      create table channels (
        id text primary key,
        user_id text not null references users(id) on delete cascade,
        kind text not null check (kind in ('email', 'slack', 'ntfy')),
        target text not null,
        state text not null check (state in ('pending', 'active', 'disabled')),
        disabled_reason text,
        disabled_at timestamptz,
        confirm_hash text unique,
        confirm_expires_at timestamptz,
        failing_since timestamptz,
        created_at timestamptz not null
      );
      create index channels_user_idx on channels (user_id, id);

      create table notify_settings (
        user_id text primary key references users(id) on delete cascade,
        assigned boolean not null default true,
        open_action boolean not null default true,
        overdue boolean not null default true,
        reminder boolean not null default true,
        digest boolean not null default false,
        remind_after integer not null default 86400 check (remind_after >= 60),
        digest_hour integer not null default 9 check (digest_hour between 0 and 23),
        updated_at timestamptz not null
      );

      create table notifications (
        id text primary key,
        channel_id text not null references channels(id) on delete cascade,
        dedupe_key text not null,
        trigger text not null,
        artifact_id text,
        content jsonb not null,
        state text not null check (state in ('pending', 'delivered', 'failed')),
        retry integer not null default 0,
        attempts integer not null default 0,
        held boolean not null default false,
        next_at timestamptz not null,
        leased_until timestamptz,
        created_at timestamptz not null,
        finished_at timestamptz,
        unique (channel_id, dedupe_key)
      );
      create index notifications_due_idx on notifications (channel_id, next_at) where state = 'pending';
      create index notifications_artifact_idx on notifications (artifact_id) where artifact_id is not null;

      create table notification_attempts (
        id text primary key,
        channel_id text not null references channels(id) on delete cascade,
        triggers jsonb not null,
        notifications integer not null,
        ok boolean not null,
        status_code integer,
        error text,
        latency_ms integer not null,
        at timestamptz not null
      );
      create index notification_attempts_channel_idx on notification_attempts (channel_id, at desc);

      create table feed_keys (
        user_id text primary key references users(id) on delete cascade,
        key_hash text not null unique,
        created_at timestamptz not null
      );

      create table notify_assignments (
        artifact_id text primary key references artifacts(id) on delete cascade,
        assignee text,
        assigned_at timestamptz not null
      );

      alter table events add column notified_at timestamptz;
      update events set notified_at = created_at;
      create index events_unnotified_idx on events (id) where notified_at is null;
    `,
};
