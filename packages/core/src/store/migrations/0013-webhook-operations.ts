import type { Migration } from "./types.js";

/**
 * Webhooks an operator can run (SPEC §19, ADR 0030).
 *
 * - `deliveries.leased_until`: when a worker's claim on an attempt in flight runs out. It
 *   tells an attempt in flight from one waiting in backoff (both have a future `next_at`),
 *   so a redelivery can bring a waiting one forward instead of doubling it, and it counts
 *   a subscription's deliveries in flight (at most 2, so one receiver cannot take every slot).
 * - `deliveries_subscription_due_idx`: each subscription's due deliveries in order, so a
 *   claim can take the first two of every subscription without reading a whole backlog;
 *   `deliveries_subscription_event_idx` pages a subscription's events newest first.
 * - `subscriptions.previous_secret` / `previous_secret_until`: after a rotation the old
 *   secret signs too, for 24 h, beside the new one.
 * - `subscriptions.failing_streak_since`: the start of an unbroken run of failed attempts
 *   (any success ends it), which disables a subscription after 5 days. `failing_since` now
 *   says "an event of this subscription is still failing", which a success of another
 *   event does not clear.
 */
export const webhookOperations: Migration = {
  version: "0013_webhook_operations",
  sql: `
    alter table deliveries add column leased_until timestamptz;
    create index deliveries_subscription_due_idx on deliveries (subscription_id, next_at) where state = 'pending';
    create index deliveries_subscription_event_idx on deliveries (subscription_id, event_id desc);
    drop index deliveries_subscription_idx;

    alter table subscriptions add column previous_secret text;
    alter table subscriptions add column previous_secret_until timestamptz;
    alter table subscriptions add column failing_streak_since timestamptz;
    update subscriptions set failing_streak_since = failing_since;
  `,
};
