import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { notFound, validationFailed } from "../errors.js";
import { LIMITS } from "../limits.js";
import { EVENT_RETENTION_DAYS } from "./prune.js";
import { findSubscription } from "./subscriptions.js";
import type { DeliveriesInput, DeliveryAttempt, DeliveryList, RecoverInput, RedeliverInput, Requeued } from "./subscription-schemas.js";
import { ringOutbox } from "./wake.js";

interface AttemptRow {
  event_id: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  at: Date | string;
}

const toAttempt = (r: AttemptRow): DeliveryAttempt => ({
  event_id: r.event_id,
  attempt: r.attempt,
  status_code: r.status_code,
  ...(r.error !== null && { error: r.error }),
  latency_ms: r.latency_ms,
  at: new Date(r.at).toISOString(),
});

const encodeCursor = (r: AttemptRow) => Buffer.from(JSON.stringify([new Date(r.at).toISOString(), r.event_id, r.attempt])).toString("base64url");
function decodeCursor(cursor: string): [string, string, number] {
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(v) && v.length === 3 && typeof v[0] === "string" && typeof v[1] === "string" && Number.isInteger(v[2])) {
      if (!Number.isNaN(Date.parse(v[0]))) return v as [string, string, number];
    }
  } catch {}
  throw validationFailed([{ field: "cursor", reason: "is not a cursor this server issued" }]);
}

/** subscription_deliveries: every attempt, newest first, keyset-paged on (at, event, attempt). */
export async function listDeliveries(ctx: ServiceContext, input: z.output<typeof DeliveriesInput>): Promise<z.output<typeof DeliveryList>> {
  const sub = await findSubscription(ctx, input.id);
  const limit = input.limit ?? LIMITS.pageDefault;
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const rows = await ctx.store.query<AttemptRow>(
    `select event_id, attempt, status_code, error, latency_ms, at from delivery_attempts
      where subscription_id = $1
        and ($2::timestamptz is null or (at, event_id, attempt) < ($2::timestamptz, $3::text, $4::int))
      order by at desc, event_id desc, attempt desc limit $5`,
    [sub.id, after?.[0] ?? null, after?.[1] ?? null, after?.[2] ?? null, limit + 1],
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(toAttempt), next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/**
 * Queues events again for one subscription, with a fresh retry schedule. The event keeps
 * its id and bytes, so a receiver that already has it can recognise the repeat.
 */
async function requeue(ctx: ServiceContext, subscriptionId: string, where: string, params: unknown[]): Promise<number> {
  const now = ctx.now().toISOString();
  return ctx.store.transaction(async (tx) => {
    // A delivery still pending (perhaps in flight right now) keeps its claim and is marked to go
    // out once more after its current attempt.
    await tx.query(
      `insert into deliveries (event_id, subscription_id, state, next_at, created_at)
       select e.id, s.id, 'pending', $2, $2 from events e join subscriptions s on s.id = $1 and s.owner = e.owner
        where (s.events is null or s.events ? e.type) and ${where}
       on conflict (event_id, subscription_id)
         do update set
           state = 'pending',
           retry = 0,
           next_at = case when deliveries.state = 'pending' then deliveries.next_at else excluded.next_at end,
           requeued = deliveries.state = 'pending',
           finished_at = null`,
      [subscriptionId, now, ...params],
    );
    const [row] = await tx.query<{ n: number }>(
      `select count(*)::int as n from deliveries d join events e on e.id = d.event_id
        where d.subscription_id = $1 and d.state = 'pending' and $2::timestamptz is not null and ${where}`,
      [subscriptionId, now, ...params],
    );
    tx.afterCommit(ringOutbox);
    return row?.n ?? 0;
  });
}

export async function redeliverEvent(ctx: ServiceContext, input: z.output<typeof RedeliverInput>): Promise<z.output<typeof Requeued>> {
  const sub = await findSubscription(ctx, input.id);
  const [event] = await ctx.store.query<{ id: string }>("select id from events where id = $1 and owner = $2", [input.event_id, sub.owner]);
  if (!event) throw notFound("event", "event_id");
  return { queued: await requeue(ctx, sub.id, "e.id = $3", [event.id]) };
}

export async function recoverEvents(ctx: ServiceContext, input: z.output<typeof RecoverInput>): Promise<z.output<typeof Requeued>> {
  const sub = await findSubscription(ctx, input.id);
  const since = new Date(input.since);
  const oldest = ctx.now().getTime() - EVENT_RETENTION_DAYS * 86_400_000;
  if (since.getTime() < oldest) {
    throw validationFailed([{ field: "since", reason: `must be within the last ${EVENT_RETENTION_DAYS} days (events are kept that long)` }]);
  }
  return { queued: await requeue(ctx, sub.id, "e.created_at >= $3", [since.toISOString()]) };
}
