import { attemptOutcome, processMetrics } from "../metrics/registry.js";
import type { Store } from "../store/port.js";
import { type RetrySchedule, retryDelay } from "./schedule.js";
import type { SendResult } from "./send.js";
import { ringOutbox } from "./wake.js";

/** A delivery claimed by this worker, with what it needs to send. */
export interface Claimed {
  event_id: string;
  subscription_id: string;
  attempts: number;
  retry: number;
  url: string;
  /** The signing secrets, newest first: the current one and every one replaced in the last 24 h (at most three, SPEC §24). */
  secrets: string[];
  payload: string;
}

/** Deliveries of one subscription in flight at once, across every worker (SPEC §19). */
export const MAX_IN_FLIGHT_PER_SUBSCRIPTION = 2;

const describeSpan = (ms: number) => (ms >= 86_400_000 ? `${Math.round(ms / 86_400_000)} days` : `${Math.round(ms / 60_000)} minutes`);

const at = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

interface ClaimedRow extends Omit<Claimed, "secrets"> {
  secret: string;
  previous_secrets: string[] | null;
}

/**
 * Claims up to `limit` due deliveries of enabled subscriptions, fairly (ADR 0030): at most
 * two of one subscription in flight across all workers, and the first due delivery of
 * every subscription before the second of any. One call to `cairn_claim_deliveries`
 * (migration 0013): it locks the subscriptions with due work (SKIP LOCKED: another
 * worker claiming for one right now is skipped, never waited for), then, in a fresh
 * snapshot, counts what is in flight and takes what is left of each one's slots.
 *
 * The claim moves `next_at` and `leased_until` to the end of the lease: the row is hidden
 * until this worker records the result or, if it dies, until the lease runs out and
 * another takes it over.
 */
export async function claimDue(store: Store, now: Date, limit: number, leaseMs: number): Promise<Claimed[]> {
  const rows = await store.query<ClaimedRow>("select * from cairn_claim_deliveries($1::timestamptz, $2::int, $3::timestamptz, $4::int)", [
    now.toISOString(),
    limit,
    at(now, leaseMs),
    MAX_IN_FLIGHT_PER_SUBSCRIPTION,
  ]);
  return rows.map(({ secret, previous_secrets, ...c }) => ({ ...c, secrets: [secret, ...(previous_secrets ?? [])] }));
}

/** Gives a claim back untried (shutdown before or during the send): the attempt does not count. */
export async function releaseClaim(store: Store, c: Claimed, now: Date): Promise<void> {
  await store.query(
    "update deliveries set attempts = attempts - 1, next_at = $4, leased_until = null where event_id = $1 and subscription_id = $2 and attempts = $3 and state = 'pending'",
    [c.event_id, c.subscription_id, c.attempts, now.toISOString()],
  );
  ringOutbox();
}

/**
 * After a success, the subscription is still failing while another of its events is not
 * delivered after a failed attempt: since that event's first failure (the earliest of them).
 */
export const STILL_FAILING_SINCE = `(
  select min(a.at) from deliveries o join delivery_attempts a
    on a.subscription_id = o.subscription_id and a.event_id = o.event_id and a.error is not null
   where o.subscription_id = subscriptions.id and (o.state = 'failed' or (o.state = 'pending' and o.retry > 0)))`;

/**
 * Records one attempt and decides what follows, in one transaction: delivered; or the
 * next retry (never before a Retry-After); or failed once the schedule is used up. A 410
 * disables the subscription at once, failures for `disableAfterMs` disable it too; its
 * pending deliveries wait and resume when it is re-enabled.
 */
export async function recordAttempt(store: Store, c: Claimed, result: SendResult, now: Date, schedule: RetrySchedule): Promise<void> {
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  processMetrics.webhookAttempt(attemptOutcome(ok, result.status));
  await store.transaction(async (tx) => {
    // The lock order of ADR 0041: the subscription's row first, then its delivery, then the
    // subscription's own columns (already ours). The subscription may have been deleted while
    // the attempt was in flight: then there is nothing to record.
    const [sub] = await tx.query("select 1 from subscriptions where id = $1 for no key update", [c.subscription_id]);
    if (!sub) return;
    await tx.query(
      `insert into delivery_attempts (subscription_id, event_id, attempt, status_code, error, latency_ms, at)
       values ($1::text, $2::text, $3::int, $4::int, $5::text, $6::int, $7::timestamptz)
       on conflict do nothing`,
      [c.subscription_id, c.event_id, c.attempts, result.status, ok ? null : (result.error ?? "failed"), Math.round(result.latencyMs), now.toISOString()],
    );
    if (ok) {
      // A redelivery asked for while this attempt was in flight goes out next.
      await tx.query(
        `update deliveries set
           state = case when requeued then 'pending' else 'delivered' end,
           retry = 0, requeued = false, next_at = $4, leased_until = null,
           finished_at = case when requeued then null else $4::timestamptz end
          where event_id = $1 and subscription_id = $2 and attempts = $3`,
        [c.event_id, c.subscription_id, c.attempts, now.toISOString()],
      );
      await tx.query(
        `update subscriptions set failing_streak_since = null, failing_since = ${STILL_FAILING_SINCE}
          where id = $1 and (failing_since is not null or failing_streak_since is not null)`,
        [c.subscription_id],
      );
      return;
    }
    const delay = retryDelay(schedule, c.retry, result.retryAfterMs);
    await tx.query(
      // A redelivery asked for while this attempt was in flight goes out now, on a fresh schedule.
      `update deliveries set retry = case when requeued then 0 else retry + 1 end, requeued = false,
              state = case when requeued then 'pending' else $4 end,
              next_at = case when requeued then $7::timestamptz else $5::timestamptz end,
              finished_at = case when requeued then null else $6::timestamptz end, leased_until = null
        where event_id = $1 and subscription_id = $2 and attempts = $3`,
      [
        c.event_id,
        c.subscription_id,
        c.attempts,
        delay === null ? "failed" : "pending",
        delay === null ? now.toISOString() : at(now, delay),
        delay === null ? now.toISOString() : null,
        now.toISOString(),
      ],
    );
    const [streak] = await tx.query<{ failing_streak_since: Date | string }>(
      `update subscriptions set failing_since = coalesce(failing_since, $2), failing_streak_since = coalesce(failing_streak_since, $2)
        where id = $1 returning failing_streak_since`,
      [c.subscription_id, now.toISOString()],
    );
    const failingFor = streak ? now.getTime() - new Date(streak.failing_streak_since).getTime() : 0;
    const reason =
      result.status === 410
        ? "The receiver answered 410 Gone."
        : failingFor >= schedule.disableAfterMs
          ? `Every attempt failed for ${describeSpan(schedule.disableAfterMs)}.`
          : null;
    if (reason) {
      await tx.query("update subscriptions set enabled = false, disabled_reason = $2, disabled_at = $3 where id = $1 and enabled", [
        c.subscription_id,
        reason,
        now.toISOString(),
      ]);
    }
  });
}
