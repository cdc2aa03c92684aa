import type { Migration } from "./types.js";

/**
 * Events and webhooks (SPEC §10). `events` is the transactional outbox: a row is written
 * in the same transaction as the thing it announces, with the exact payload bytes, so a
 * retry sends the same bytes and the same id. `deliveries` is the queue (one row per event
 * and subscription), claimed by workers with `FOR UPDATE SKIP LOCKED`; `delivery_attempts`
 * is the listable history. `job_runs` leases scheduled jobs to one process at a time and
 * keeps each job's last result for doctor.
 */
export const events: Migration = {
  version: "0005_events",
  sql: `
      create table subscriptions (
        id text primary key,
        owner text not null,
        url text not null,
        events jsonb,
        secret text not null,
        enabled boolean not null default true,
        disabled_reason text,
        disabled_at timestamptz,
        failing_since timestamptz,
        created_by text not null,
        created_at timestamptz not null
      );
      create index subscriptions_owner_idx on subscriptions (owner, id desc);

      create table events (
        id text primary key,
        type text not null,
        owner text not null,
        payload text not null,
        created_at timestamptz not null
      );
      create index events_owner_created_idx on events (owner, created_at);

      create table deliveries (
        event_id text not null references events(id) on delete cascade,
        subscription_id text not null references subscriptions(id) on delete cascade,
        state text not null check (state in ('pending', 'delivered', 'failed')),
        retry integer not null default 0,
        attempts integer not null default 0,
        requeued boolean not null default false,
        next_at timestamptz not null,
        created_at timestamptz not null,
        finished_at timestamptz,
        primary key (event_id, subscription_id)
      );
      create index deliveries_due_idx on deliveries (next_at) where state = 'pending';
      create index deliveries_subscription_idx on deliveries (subscription_id);

      create table delivery_attempts (
        subscription_id text not null references subscriptions(id) on delete cascade,
        event_id text not null references events(id) on delete cascade,
        attempt integer not null,
        status_code integer,
        error text,
        latency_ms integer not null,
        at timestamptz not null,
        primary key (subscription_id, event_id, attempt)
      );
      create index delivery_attempts_subscription_at_idx on delivery_attempts (subscription_id, at desc, event_id, attempt);

      create table job_runs (
        name text primary key,
        next_at timestamptz not null,
        started_at timestamptz,
        finished_at timestamptz,
        last_count integer,
        last_error text,
        runs integer not null default 0
      );
    `,
};
