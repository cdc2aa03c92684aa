import type { CairnConfig } from "../context.js";
import type { RetrySchedule } from "../events/schedule.js";
import type { Store } from "../store/port.js";
import { type ClaimedBatch, type ClaimedNotification, GROUP_AFTER, recordMessage, releaseBatch } from "./deliver.js";
import { messageOf } from "./render.js";
import { sendTo } from "./transports.js";

/** What sending a claimed batch needs; nothing of the loop that claimed it. */
export interface BatchSending {
  store: Store;
  config: CairnConfig;
  now: () => Date;
  schedule: RetrySchedule;
  denyPrivate: boolean;
  timeoutMs: number;
}

/** Sent one by one, whatever the channel's minute looks like: a person asked for them. */
const ALWAYS_ALONE = new Set(["confirm", "test"]);

async function send(s: BatchSending, b: ClaimedBatch, items: ClaimedNotification[], signal: AbortSignal): Promise<void> {
  const message = messageOf(
    items.map((i) => i.content),
    s.config.publicUrl,
  );
  const result = await sendTo(b.kind, b.target, message, { denyPrivate: s.denyPrivate, mail: s.config.mail, timeoutMs: s.timeoutMs, signal });
  if (signal.aborted && !result.ok && result.status === null) {
    await releaseBatch(s.store, { ...b, items }, s.now(), false);
    return;
  }
  await recordMessage(s.store, b.channel_id, items, result, s.now(), s.schedule);
}

/**
 * Sends one channel's claimed notifications: confirmations and tests alone, then the rest
 * one by one, or as one message once the channel had its three this minute (ADR 0055).
 */
export async function sendClaimedBatch(s: BatchSending, b: ClaimedBatch, signal: AbortSignal): Promise<void> {
  const alone = b.items.filter((i) => ALWAYS_ALONE.has(i.trigger));
  const rest = b.items.filter((i) => !ALWAYS_ALONE.has(i.trigger));
  for (const i of alone) await send(s, b, [i], signal);
  if (rest.length === 0) return;
  if (b.recent + alone.length >= GROUP_AFTER) {
    // The channel had its three messages this minute: the rest wait for the minute to pass, then go as one.
    const frees = b.window_frees_at ? new Date(b.window_frees_at) : new Date(s.now().getTime() + 60_000);
    await releaseBatch(s.store, { ...b, items: rest }, frees, true);
    return;
  }
  if (rest.length > 1 && (b.recent + alone.length + rest.length > GROUP_AFTER || rest.some((i) => i.held))) {
    await send(s, b, rest, signal);
    return;
  }
  for (const i of rest) await send(s, b, [i], signal);
}
