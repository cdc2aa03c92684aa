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
  secret: string;
  payload: string;
}

const describeSpan = (ms: number) =>
  ms >= 86_400_000 ? `${Math.round(ms / 86_400_000)} days` : `${Math.round(ms / 60_000)} minutes`;

const at = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/**
 * Claims up to `limit` due deliveries of enabled subscriptions. SKIP LOCKED lets many
 * workers claim at once without taking the same row; moving next_at to the end of the
 * lease hides the row from the others until this worker records the result — or, if it
 * dies, until the lease runs out and another takes it over.
 */
export async function claimDue(store: Store, now: Date, limit: number, leaseMs: number): Promise<Claimed[]> {
  return store.transaction((tx) =>
    tx.query<Claimed>(
      `with due as (
         select d.event_id, d.subscription_id from deliveries d
           join subscriptions s on s.id = d.subscription_id
          where d.state = 'pending' and d.next_at <= $1 and s.enabled
          order by d.next_at
          limit $2
          for update of d skip locked
       )
       update deliveries d set attempts = d.attempts + 1, next_at = $3
         from due, subscriptions s, events e
        where d.event_id = due.event_id and d.subscription_id = due.subscription_id
          and s.id = d.subscription_id and e.id = d.event_id
       returning d.event_id, d.subscription_id, d.attempts, d.retry, s.url, s.secret, e.payload`,
      [now.toISOString(), limit, at(now, leaseMs)],
    ),
  );
}

/** Gives a claim back untried (shutdown before or during the send): the attempt does not count. */
export async function releaseClaim(store: Store, c: Claimed, now: Date): Promise<void> {
  await store.query(
    "update deliveries set attempts = attempts - 1, next_at = $4 where event_id = $1 and subscription_id = $2 and attempts = $3 and state = 'pending'",
    [c.event_id, c.subscription_id, c.attempts, now.toISOString()],
  );
  ringOutbox();
}

/**
 * Records one attempt and decides what follows, in one transaction: delivered; or the
 * next retry (never before a Retry-After); or failed once the schedule is used up. A 410
 * disables the subscription at once, failures for `disableAfterMs` disable it too; its
 * pending deliveries wait and resume when it is re-enabled.
 */
export async function recordAttempt(store: Store, c: Claimed, result: SendResult, now: Date, schedule: RetrySchedule): Promise<void> {
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  await store.transaction(async (tx) => {
    await tx.query(
      // The subscription may have been deleted while the attempt was in flight: then there is nothing to record.
      `insert into delivery_attempts (subscription_id, event_id, attempt, status_code, error, latency_ms, at)
       select $1::text, $2::text, $3::int, $4::int, $5::text, $6::int, $7::timestamptz where exists (select 1 from subscriptions where id = $1)
       on conflict do nothing`,
      [c.subscription_id, c.event_id, c.attempts, result.status, ok ? null : (result.error ?? "failed"), Math.round(result.latencyMs), now.toISOString()],
    );
    if (ok) {
      // A redelivery asked for while this attempt was in flight goes out next.
      await tx.query(
        `update deliveries set
           state = case when requeued then 'pending' else 'delivered' end,
           retry = 0, requeued = false, next_at = $4,
           finished_at = case when requeued then null else $4::timestamptz end
          where event_id = $1 and subscription_id = $2 and attempts = $3`,
        [c.event_id, c.subscription_id, c.attempts, now.toISOString()],
      );
      await tx.query("update subscriptions set failing_since = null where id = $1 and failing_since is not null", [c.subscription_id]);
      return;
    }
    const delay = retryDelay(schedule, c.retry, result.retryAfterMs);
    await tx.query(
      `update deliveries set retry = case when requeued then 0 else retry + 1 end, requeued = false,
              state = $4, next_at = $5, finished_at = $6
        where event_id = $1 and subscription_id = $2 and attempts = $3`,
      [
        c.event_id,
        c.subscription_id,
        c.attempts,
        delay === null ? "failed" : "pending",
        delay === null ? now.toISOString() : at(now, delay),
        delay === null ? now.toISOString() : null,
      ],
    );
    const [sub] = await tx.query<{ failing_since: Date | string }>(
      "update subscriptions set failing_since = coalesce(failing_since, $2) where id = $1 returning failing_since",
      [c.subscription_id, now.toISOString()],
    );
    const failingFor = sub ? now.getTime() - new Date(sub.failing_since).getTime() : 0;
    const reason =
      result.status === 410
        ? "The receiver answered 410 Gone."
        : failingFor >= schedule.disableAfterMs
          ? `Every attempt failed for ${describeSpan(schedule.disableAfterMs)}.`
          : null;
    if (reason) {
      await tx.query(
        "update subscriptions set enabled = false, disabled_reason = $2, disabled_at = $3 where id = $1 and enabled",
        [c.subscription_id, reason, now.toISOString()],
      );
    }
  });
}
