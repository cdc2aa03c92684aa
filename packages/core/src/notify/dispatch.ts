import type { CairnConfig } from "../context.js";
import type { RetrySchedule } from "../events/schedule.js";
import type { Store } from "../store/port.js";
import { untilAvailable } from "../store/until-available.js";
import { type ClaimedBatch, type ClaimedNotification, GROUP_AFTER, GROUP_WINDOW_MS, recordMessage, releaseBatch } from "./deliver.js";
import { DRAIN_EVERY_MS, MESSAGE_FITS } from "./drivers.js";
import { messageOf } from "./render.js";
import { type SendSettings, sendTo } from "./transports.js";

export interface DispatchOptions {
  store: Store;
  config: CairnConfig;
  now: () => Date;
  schedule: RetrySchedule;
  settings: () => SendSettings;
  /** Whether the process is stopping (a send cut short then is given back untried). */
  stopping: () => boolean;
}

/** Sent one by one, whatever the channel's minute looks like: a person asked for them. */
const ALWAYS_ALONE = new Set(["confirm", "test"]);

/**
 * Sends one channel's claimed batch (SPEC §27, §37). Up to three messages a minute go as
 * they come; past that what waits goes as one grouped message when the minute frees up —
 * unless more waits than one message can show, when the backlog drains at the channel
 * kind's rate (`DRAIN_EVERY_MS`) instead of three messages a minute.
 */
export async function dispatchBatch(o: DispatchOptions, b: ClaimedBatch): Promise<void> {
  const alone = b.items.filter((i) => ALWAYS_ALONE.has(i.trigger));
  const rest = b.items.filter((i) => !ALWAYS_ALONE.has(i.trigger));
  let lastAt = b.last_at ? Date.parse(b.last_at) : 0;
  for (const i of alone) lastAt = await sendMessage(o, b, [i]);
  if (rest.length === 0) return;
  if (b.recent + alone.length >= GROUP_AFTER) {
    const now = o.now().getTime();
    const shown = messageOf(
      rest.map((i) => i.content),
      o.config.publicUrl,
      MESSAGE_FITS[b.kind],
    ).shown;
    const backlog = shown < rest.length || b.more_due;
    const goesAt = backlog ? lastAt + DRAIN_EVERY_MS[b.kind] : b.window_frees_at ? Date.parse(b.window_frees_at) : now + GROUP_WINDOW_MS;
    if (goesAt > now) {
      await releaseBatch(o.store, { ...b, items: rest }, new Date(goesAt), true);
      return;
    }
    await sendMessage(o, b, rest);
    return;
  }
  if (rest.length > 1 && (b.recent + alone.length + rest.length > GROUP_AFTER || rest.some((i) => i.held))) {
    await sendMessage(o, b, rest);
    return;
  }
  for (const i of rest) await sendMessage(o, b, [i]);
}

/**
 * One message: it shows what the channel can carry whole; only that is recorded (delivered
 * when the channel took it), and the rest is given back for the next message, one drain
 * interval after this one. Returns when the attempt was recorded.
 */
async function sendMessage(o: DispatchOptions, b: ClaimedBatch, items: ClaimedNotification[]): Promise<number> {
  const message = messageOf(
    items.map((i) => i.content),
    o.config.publicUrl,
    MESSAGE_FITS[b.kind],
  );
  const shown = items.slice(0, message.shown);
  const later = items.slice(message.shown);
  // The lease is ours until then: a record lost to a failover is tried again within it, so the
  // message is not sent a second time when the lease ends.
  const leaseEnds = Date.now() + o.schedule.leaseMs - 1_000;
  const result = await sendTo(b.kind, b.target, message, o.settings());
  const at = o.now();
  if (o.stopping() && !result.ok && result.status === null) {
    await releaseBatch(o.store, { ...b, items }, at, false);
    return at.getTime();
  }
  await untilAvailable(() => recordMessage(o.store, b.channel_id, shown, result, at, o.schedule), leaseEnds);
  if (later.length > 0) await releaseBatch(o.store, { ...b, items: later }, new Date(at.getTime() + DRAIN_EVERY_MS[b.kind]), true);
  return at.getTime();
}
