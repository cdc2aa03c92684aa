import { type RetrySchedule, retryDelay } from "../events/schedule.js";
import { newId } from "../ids.js";
import { attemptOutcome, processMetrics } from "../metrics/registry.js";
import type { Store } from "../store/port.js";
import type { NotificationContent } from "./render.js";
import type { ChannelKind } from "./schemas.js";
import type { SendOutcome } from "./transports.js";
import { ringNotifier } from "./wake.js";

/** Notifications one claim takes of one channel (all of them go out as one grouped message at most). */
const BATCH_PER_CHANNEL = 50;
/** More than this many messages to one channel within GROUP_WINDOW_MS are grouped (SPEC §27). */
export const GROUP_AFTER = 3;
export const GROUP_WINDOW_MS = 60_000;

export interface ClaimedNotification {
  id: string;
  trigger: string;
  attempts: number;
  retry: number;
  held: boolean;
  content: NotificationContent;
}

/** One channel's claimed batch: at most one batch of a channel is in flight across all processes. */
export interface ClaimedBatch {
  channel_id: string;
  kind: ChannelKind;
  target: string;
  /** Messages this channel was sent within the last minute (for grouping). */
  recent: number;
  /** When the oldest of those leaves the window. */
  window_frees_at: string | null;
  /** When the newest of those went (the drain rate counts from it). */
  last_at: string | null;
  /** Whether due notifications of the channel wait beyond this batch (a backlog). */
  more_due: boolean;
  items: ClaimedNotification[];
}

const at = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/**
 * Claims due notifications fairly (ADR 0056, after ADR 0030; ADR 0076): first the channels
 * with due work and nothing in flight, the one sent to longest ago first (a channel draining
 * a backlog, whose oldest notification is always older, must not starve a new one), locked `FOR NO KEY UPDATE SKIP
 * LOCKED` so two workers never claim for one channel at once; then, in a new snapshot,
 * each one's due notifications (re-checking `next_at` and that nothing of the channel is
 * in flight), leased for `leaseMs`. A worker killed mid-send leaves a lease that runs out,
 * and the batch is taken over. Only the confirmation mail goes to a pending channel.
 */
export async function claimBatches(store: Store, now: Date, channels: number, leaseMs: number): Promise<ClaimedBatch[]> {
  return store.transaction(async (tx) => {
    const picked = await tx.query<{ id: string; kind: ChannelKind; target: string }>(
      `select c.id, c.kind, c.target from channels c
        where c.state <> 'disabled'
          and exists (select 1 from notifications n where n.channel_id = c.id and n.state = 'pending' and n.next_at <= $1
                        and (c.state = 'active' or n.trigger = 'confirm'))
          and not exists (select 1 from notifications n where n.channel_id = c.id and n.state = 'pending' and n.leased_until > $1)
        order by (select max(a.at) from notification_attempts a where a.channel_id = c.id) nulls first,
                 (select min(n.next_at) from notifications n where n.channel_id = c.id and n.state = 'pending'), c.id
        limit $2
        for no key update of c skip locked`,
      [now.toISOString(), channels],
    );
    if (picked.length === 0) return [];
    const rows = await tx.query<ClaimedNotification & { channel_id: string }>(
      `with take as (
         select n.channel_id, n.dedupe_key from unnest($1::text[]) ch join channels c on c.id = ch
          cross join lateral (
            select n.channel_id, n.dedupe_key from notifications n
             where n.channel_id = ch and n.state = 'pending' and n.next_at <= $2
               and (c.state = 'active' or n.trigger = 'confirm')
               and not exists (select 1 from notifications f where f.channel_id = n.channel_id and f.state = 'pending' and f.leased_until > $2)
             order by n.next_at, n.id limit $4) n
       )
       update notifications n set attempts = n.attempts + 1, next_at = $3, leased_until = $3
         from take where n.channel_id = take.channel_id and n.dedupe_key = take.dedupe_key and n.state = 'pending' and n.next_at <= $2
       returning n.channel_id, n.id, n.trigger, n.attempts, n.retry, n.held, n.content`,
      [picked.map((p) => p.id), now.toISOString(), at(now, leaseMs), BATCH_PER_CHANNEL],
    );
    const recent = await tx.query<{ channel_id: string; n: number; oldest: Date | string; newest: Date | string }>(
      `select channel_id, count(*)::int as n, min(at) as oldest, max(at) as newest from notification_attempts
        where channel_id = any($1::text[]) and at > $2 group by channel_id`,
      [picked.map((p) => p.id), at(now, -GROUP_WINDOW_MS)],
    );
    // A backlog: notifications beyond this batch, due within the minute (held ones included;
    // the claimed ones now carry a lease, a retry waits longer).
    const backlog = await tx.query<{ channel_id: string }>(
      `select c as channel_id from unnest($1::text[]) c
        where exists (select 1 from notifications n where n.channel_id = c and n.state = 'pending' and n.next_at <= $3
                        and (n.leased_until is null or n.leased_until <= $2))`,
      [picked.map((p) => p.id), now.toISOString(), at(now, GROUP_WINDOW_MS)],
    );
    return picked
      .map((p) => {
        const r = recent.find((x) => x.channel_id === p.id);
        return {
          channel_id: p.id,
          kind: p.kind,
          target: p.target,
          recent: r?.n ?? 0,
          window_frees_at: r ? at(new Date(r.oldest), GROUP_WINDOW_MS) : null,
          last_at: r ? new Date(r.newest).toISOString() : null,
          more_due: backlog.some((x) => x.channel_id === p.id),
          items: rows.filter((x) => x.channel_id === p.id).map(({ channel_id: _c, ...n }) => n),
        };
      })
      .filter((b) => b.items.length > 0);
  });
}

/** Gives a batch back untried: shutdown, or held until the channel's minute frees up (then grouped). */
export async function releaseBatch(store: Store, b: ClaimedBatch, nextAt: Date, hold: boolean): Promise<void> {
  await store.query(
    `update notifications n set attempts = n.attempts - 1, next_at = $3, leased_until = null, held = n.held or $4
       from jsonb_to_recordset($2::jsonb) as x(id text, attempts int)
      where n.channel_id = $1 and n.id = x.id and n.attempts = x.attempts and n.state = 'pending'`,
    [b.channel_id, JSON.stringify(b.items.map((i) => ({ id: i.id, attempts: i.attempts }))), nextAt.toISOString(), hold],
  );
  ringNotifier();
}

const describeSpan = (ms: number) => (ms >= 86_400_000 ? `${Math.round(ms / 86_400_000)} days` : `${Math.round(ms / 60_000)} minutes`);

/**
 * Records one message (one notification, or a group of them) and decides what follows, in
 * one transaction: delivered; the next retry on the webhook schedule; failed once it is
 * used up. A permanent refusal disables the channel at once, failures for
 * `disableAfterMs` too; its pending notifications then wait. Guarded by the claimed
 * `attempts`, so a stale holder never overwrites a newer attempt.
 */
export async function recordMessage(
  store: Store,
  channelId: string,
  items: readonly ClaimedNotification[],
  result: SendOutcome,
  now: Date,
  schedule: RetrySchedule,
): Promise<void> {
  const claimed = JSON.stringify(items.map((i) => ({ id: i.id, attempts: i.attempts, retry: i.retry })));
  processMetrics.notificationAttempt(attemptOutcome(result.ok, result.status));
  // One id for the message, whatever the tries: a record tried again after a failover, whose first
  // commit did land, finds its row and does nothing more (ADR 0085).
  const attemptId = newId("nat", now);
  await store.transaction(async (tx) => {
    const kept = await tx.query<{ id: string }>(
      `insert into notification_attempts (id, channel_id, triggers, notifications, ok, status_code, error, latency_ms, at)
       select $1, $2, $3::jsonb, $4, $5, $6, $7, $8, $9 where exists (select 1 from channels where id = $2)
       on conflict (id) do nothing returning id`,
      [
        attemptId,
        channelId,
        JSON.stringify([...new Set(items.map((i) => i.trigger))]),
        items.length,
        result.ok,
        result.status,
        result.ok ? null : (result.error ?? "failed"),
        Math.round(result.latencyMs),
        now.toISOString(),
      ],
    );
    if (kept.length === 0) return; // the channel was removed while the message was in flight
    if (result.ok) {
      await tx.query(
        `update notifications n set state = 'delivered', leased_until = null, finished_at = $3, next_at = $3
           from jsonb_to_recordset($2::jsonb) as x(id text, attempts int, retry int)
          where n.channel_id = $1 and n.id = x.id and n.attempts = x.attempts`,
        [channelId, claimed, now.toISOString()],
      );
      await tx.query("update channels set failing_since = null where id = $1 and failing_since is not null", [channelId]);
      return;
    }
    const retry = Math.max(...items.map((i) => i.retry));
    const delay = result.permanent ? null : retryDelay(schedule, retry, result.retryAfterMs);
    await tx.query(
      `update notifications n set retry = n.retry + 1, leased_until = null,
              state = $3, next_at = $4, finished_at = $5
         from jsonb_to_recordset($2::jsonb) as x(id text, attempts int, retry int)
        where n.channel_id = $1 and n.id = x.id and n.attempts = x.attempts`,
      [
        channelId,
        claimed,
        delay === null && !result.permanent ? "failed" : "pending",
        delay === null ? now.toISOString() : at(now, delay),
        delay === null && !result.permanent ? now.toISOString() : null,
      ],
    );
    const [ch] = await tx.query<{ failing_since: Date | string }>(
      "update channels set failing_since = coalesce(failing_since, $2) where id = $1 returning failing_since",
      [channelId, now.toISOString()],
    );
    const failingFor = ch ? now.getTime() - new Date(ch.failing_since).getTime() : 0;
    const reason = result.permanent ?? (failingFor >= schedule.disableAfterMs ? `Every attempt failed for ${describeSpan(schedule.disableAfterMs)}.` : null);
    if (reason) {
      await tx.query("update channels set state = 'disabled', disabled_reason = $2, disabled_at = $3 where id = $1 and state <> 'disabled'", [
        channelId,
        reason,
        now.toISOString(),
      ]);
    }
  });
  ringNotifier();
}
