import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { notFound, validationFailed } from "../errors.js";
import { newId } from "../ids.js";
import { LIMITS } from "../limits.js";
import { testEventPayload } from "./outbox.js";
import { EVENT_RETENTION_DAYS } from "./prune.js";
import { TEST_EVENT_TYPE } from "./schemas.js";
import type {
  DeliveriesInput,
  DeliveriesOutput,
  DeliveryAttempt,
  EventDelivery,
  RecoverInput,
  RedeliverInput,
  Requeued,
  SubscriptionIdInput,
  TestQueued,
} from "./subscription-schemas.js";
import { findSubscription, lockSubscription } from "./subscriptions.js";
import { ringOutbox } from "./wake.js";

interface AttemptRow {
  event_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  at: Date | string;
}

interface EventDeliveryRow {
  event_id: string;
  event_type: string;
  state: EventDelivery["state"];
  attempts: number;
  next_at: Date | string;
  in_flight: boolean;
}

const iso = (v: Date | string) => new Date(v).toISOString();

const toAttempt = (r: AttemptRow): DeliveryAttempt => ({
  event_id: r.event_id,
  event_type: r.event_type,
  attempt: r.attempt,
  status_code: r.status_code,
  ...(r.error !== null && { error: r.error }),
  latency_ms: r.latency_ms,
  at: iso(r.at),
});

const toEventDelivery = (r: EventDeliveryRow): EventDelivery => ({
  event_id: r.event_id,
  event_type: r.event_type,
  state: r.state,
  attempts: r.attempts,
  in_flight: r.in_flight,
  next_attempt_at: r.state === "pending" ? iso(r.next_at) : null,
});

const badCursor = () => validationFailed([{ field: "cursor", reason: "is not a cursor this server issued for this view" }]);
const encodeAttemptCursor = (r: AttemptRow) => Buffer.from(JSON.stringify([iso(r.at), r.event_id, r.attempt])).toString("base64url");
function decodeAttemptCursor(cursor: string): [string, string, number] {
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(v) && v.length === 3 && typeof v[0] === "string" && typeof v[1] === "string" && Number.isInteger(v[2])) {
      if (!Number.isNaN(Date.parse(v[0]))) return v as [string, string, number];
    }
  } catch {}
  throw badCursor();
}
const encodeEventCursor = (id: string) => Buffer.from(`e:${id}`, "utf8").toString("base64url");
function decodeEventCursor(cursor: string): string {
  const raw = Buffer.from(cursor, "base64url").toString("utf8");
  if (!/^e:evt_[0-9a-z]{26}$/.test(raw)) throw badCursor();
  return raw.slice(2);
}

/**
 * subscription_deliveries: every attempt, newest first, keyset-paged on (at, event,
 * attempt); or with `view: "events"` each event's delivery state and next attempt, newest
 * event first, paged on the (time-ordered) event id.
 */
export async function listDeliveries(ctx: ServiceContext, input: z.output<typeof DeliveriesInput>): Promise<z.output<typeof DeliveriesOutput>> {
  const sub = await findSubscription(ctx, input.id);
  const limit = input.limit ?? LIMITS.pageDefault;
  if (input.view === "events") {
    const after = input.cursor ? decodeEventCursor(input.cursor) : null;
    const rows = await ctx.store.query<EventDeliveryRow>(
      `select d.event_id, e.type as event_type, d.state, d.attempts, d.next_at,
              (d.state = 'pending' and d.leased_until is not null and d.leased_until > $4) as in_flight
         from deliveries d join events e on e.id = d.event_id
        where d.subscription_id = $1 and ($2::text is null or d.event_id < $2::text)
        order by d.event_id desc limit $3`,
      [sub.id, after, limit + 1, ctx.now().toISOString()],
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { items: page.map(toEventDelivery), next_cursor: rows.length > limit && last ? encodeEventCursor(last.event_id) : null };
  }
  const after = input.cursor ? decodeAttemptCursor(input.cursor) : null;
  const rows = await ctx.store.query<AttemptRow>(
    `select a.event_id, e.type as event_type, a.attempt, a.status_code, a.error, a.latency_ms, a.at
       from delivery_attempts a join events e on e.id = a.event_id
      where a.subscription_id = $1
        and ($2::timestamptz is null or (a.at, a.event_id, a.attempt) < ($2::timestamptz, $3::text, $4::int))
      order by a.at desc, a.event_id desc, a.attempt desc limit $5`,
    [sub.id, after?.[0] ?? null, after?.[1] ?? null, after?.[2] ?? null, limit + 1],
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(toAttempt), next_cursor: rows.length > limit && last ? encodeAttemptCursor(last) : null };
}

/**
 * Makes a delivery due now, with a fresh retry schedule (ADR 0030). One waiting in backoff
 * is brought forward — the same row, so no attempt of its old schedule follows a success.
 * One in flight right now keeps its claim and goes out once more after that attempt
 * (`requeued`), so it is never sent twice at once. The event keeps its id and bytes.
 */
const BRING_FORWARD = `
  update deliveries d set
    state = 'pending', retry = 0, finished_at = null,
    next_at = case when d.state = 'pending' and d.leased_until > $2 then d.next_at else $2::timestamptz end,
    requeued = d.state = 'pending' and d.leased_until is not null and d.leased_until > $2`;

export async function redeliverEvent(ctx: ServiceContext, input: z.output<typeof RedeliverInput>): Promise<z.output<typeof Requeued>> {
  const now = ctx.now().toISOString();
  // The subscription first, locked (ADR 0041), then its delivery: deleted meanwhile is a 404, never a foreign-key error.
  return ctx.store.transaction(async (tx) => {
    const sub = await lockSubscription(tx, ctx, input.id);
    const [event] = await tx.query<{ id: string; type: string; created_at: Date | string; queued: boolean }>(
      `select e.id, e.type, e.created_at,
              exists (select 1 from deliveries d where d.event_id = e.id and d.subscription_id = $3) as queued
         from events e where e.id = $1 and e.owner = $2`,
      [input.event_id, sub.owner, sub.id],
    );
    if (!event) throw notFound("event", "event_id");
    if (!event.queued) {
      // Never this subscription's to receive: before it existed, a type it does not take, another subscription's test.
      const reason =
        new Date(event.created_at).getTime() < new Date(sub.created_at).getTime()
          ? "was created before this subscription existed; it is never sent to it"
          : event.type === TEST_EVENT_TYPE
            ? "is a test event of another subscription"
            : sub.events !== null && !sub.events.includes(event.type as never)
              ? `is a ${event.type} event, which this subscription does not take`
              : null;
      if (reason) throw validationFailed([{ field: "event_id", reason }]);
    }
    // An event written while the subscription was disabled was never queued for it: queue it now.
    await tx.query(
      `insert into deliveries (event_id, subscription_id, state, next_at, created_at) values ($1, $2, 'pending', $3, $3)
       on conflict (event_id, subscription_id) do nothing`,
      [event.id, sub.id, now],
    );
    const rows = await tx.query(`${BRING_FORWARD} where d.event_id = $1 and d.subscription_id = $3 returning 1`, [event.id, now, sub.id]);
    tx.afterCommit(ringOutbox);
    return { queued: rows.length };
  });
}

/**
 * Resends what this subscription has not received since `since` (SPEC §19): deliveries
 * that failed or wait in backoff are brought forward, events it takes that were never
 * queued for it (written while it was disabled) are queued; delivered ones, ones in flight
 * and events from before the subscription existed are left alone.
 */
export async function recoverEvents(ctx: ServiceContext, input: z.output<typeof RecoverInput>): Promise<z.output<typeof Requeued>> {
  const since = new Date(input.since);
  const oldest = ctx.now().getTime() - EVENT_RETENTION_DAYS * 86_400_000;
  if (since.getTime() < oldest) {
    await findSubscription(ctx, input.id); // an unknown subscription is a 404 before a bad `since`
    throw validationFailed([{ field: "since", reason: `must be within the last ${EVENT_RETENTION_DAYS} days (events are kept that long)` }]);
  }
  const now = ctx.now().toISOString();
  return ctx.store.transaction(async (tx) => {
    // The subscription first, locked (ADR 0041): the worker's claim skips it until this commits.
    const sub = await lockSubscription(tx, ctx, input.id);
    const from = new Date(Math.max(since.getTime(), new Date(sub.created_at).getTime())).toISOString();
    const forward = await tx.query(
      `${BRING_FORWARD}
         from events e
        where e.id = d.event_id and d.subscription_id = $1 and e.created_at >= $3
          and (d.state = 'failed' or (d.state = 'pending' and (d.leased_until is null or d.leased_until <= $2)))
       returning 1`,
      [sub.id, now, from],
    );
    const missing = await tx.query(
      `insert into deliveries (event_id, subscription_id, state, next_at, created_at)
       select e.id, s.id, 'pending', $2, $2 from events e join subscriptions s on s.id = $1 and s.owner = e.owner
        where e.created_at >= $3 and e.type <> '${TEST_EVENT_TYPE}' and (s.events is null or s.events ? e.type)
       on conflict (event_id, subscription_id) do nothing
       returning 1`,
      [sub.id, now, from],
    );
    const queued = forward.length + missing.length;
    if (queued > 0) tx.afterCommit(ringOutbox);
    return { queued };
  });
}

/** subscription_test: a `webhook.test` event for this one subscription, whatever its filter (SPEC §19). */
export async function testSubscription(ctx: ServiceContext, input: z.output<typeof SubscriptionIdInput>): Promise<z.output<typeof TestQueued>> {
  const now = ctx.now();
  const id = newId("evt", now);
  await ctx.store.transaction(async (tx) => {
    // The subscription first, locked (ADR 0041): deleted meanwhile is a 404, never a foreign-key error.
    const sub = await lockSubscription(tx, ctx, input.id);
    await tx.query("insert into events (id, type, owner, payload, created_at) values ($1, $2, $3, $4, $5)", [
      id,
      TEST_EVENT_TYPE,
      sub.owner,
      testEventPayload(id, now, sub.id),
      now.toISOString(),
    ]);
    await tx.query("insert into deliveries (event_id, subscription_id, state, next_at, created_at) values ($1, $2, 'pending', $3, $3)", [
      id,
      sub.id,
      now.toISOString(),
    ]);
    tx.afterCommit(ringOutbox);
  });
  return { event_id: id, queued: 1 };
}
