import { untilAvailable } from "../store/until-available.js";
import type { CairnConfig } from "../context.js";
import type { RetrySchedule } from "../events/schedule.js";
import type { Logger } from "../log.js";
import type { Store } from "../store/port.js";
import { type ClaimedBatch, type ClaimedNotification, claimBatches, GROUP_AFTER, recordMessage, releaseBatch } from "./deliver.js";
import { FANOUT_BATCH, fanOut } from "./fanout.js";
import { messageOf } from "./render.js";
import { sendTo } from "./transports.js";
import { onNotifierRing } from "./wake.js";

export interface NotifierOptions {
  store: Store;
  config: CairnConfig;
  now: () => Date;
  schedule: RetrySchedule;
  denyPrivate: boolean;
  logger: Logger;
  pollMs: number;
  /** Channels sending at once in this process. */
  concurrency?: number;
  timeoutMs?: number;
}

/** Sent one by one, whatever the channel's minute looks like: a person asked for them. */
const ALWAYS_ALONE = new Set(["confirm", "test"]);

/**
 * The notifications half of every worker (`cairn serve`, `cairn worker`): fans new events
 * out to the channels of the people they concern, then claims due notifications channel
 * by channel and sends them. Shares work with other processes only through the database
 * (ADR 0055, 0056); `stop()` lets a send in flight finish, then gives unsent claims back.
 */
export function startNotifier(o: NotifierOptions): { wake(): void; stop(graceMs?: number): Promise<void> } {
  const concurrency = o.concurrency ?? 4;
  const abort = new AbortController();
  const settings = () => ({ denyPrivate: o.denyPrivate, mail: o.config.mail, timeoutMs: o.timeoutMs ?? 15_000, signal: abort.signal });
  let running = true;
  let rung = true;
  let sleeping: (() => void) | null = null;
  const inFlight = new Set<Promise<void>>();
  const wake = () => {
    rung = true;
    sleeping?.();
  };
  const unsubscribe = onNotifierRing(wake);
  // A wake-up after each send must not mean a fan-out statement each time: on the embedded
  // store (one connection) it would queue in front of the writes. New events wait at most this long.
  const fanOutEveryMs = Math.max(100, Math.floor(o.pollMs / 2));
  let lastFanOut = 0;
  let fanOutFull = false;

  const send = async (b: ClaimedBatch, items: ClaimedNotification[]) => {
    const message = messageOf(
      items.map((i) => i.content),
      o.config.publicUrl,
    );
    // The lease is ours until then: a record lost to a failover is tried again within it, so the
    // message is not sent a second time when the lease ends.
    const leaseEnds = Date.now() + o.schedule.leaseMs - 1_000;
    const result = await sendTo(b.kind, b.target, message, settings());
    if (abort.signal.aborted && !result.ok && result.status === null) {
      await releaseBatch(o.store, { ...b, items }, o.now(), false);
      return;
    }
    const at = o.now();
    await untilAvailable(() => recordMessage(o.store, b.channel_id, items, result, at, o.schedule), leaseEnds);
  };

  const run = async (b: ClaimedBatch) => {
    const alone = b.items.filter((i) => ALWAYS_ALONE.has(i.trigger));
    const rest = b.items.filter((i) => !ALWAYS_ALONE.has(i.trigger));
    for (const i of alone) await send(b, [i]);
    if (rest.length === 0) return;
    if (b.recent + alone.length >= GROUP_AFTER) {
      // The channel had its three messages this minute: the rest wait for the minute to pass, then go as one.
      const frees = b.window_frees_at ? new Date(b.window_frees_at) : new Date(o.now().getTime() + 60_000);
      await releaseBatch(o.store, { ...b, items: rest }, frees, true);
      return;
    }
    if (rest.length > 1 && (b.recent + alone.length + rest.length > GROUP_AFTER || rest.some((i) => i.held))) {
      await send(b, rest);
      return;
    }
    for (const i of rest) await send(b, [i]);
  };

  const track = (p: Promise<void>) => {
    const t = p
      .catch((err) => o.logger.warn({ code: "notification_failed" }, err))
      .finally(() => {
        inFlight.delete(t);
        wake();
      });
    inFlight.add(t);
  };

  const loop = (async () => {
    while (running) {
      if (rung) {
        rung = false;
        try {
          // Fan out what was written since the last look; a full batch means more is waiting.
          if (fanOutFull || Date.now() - lastFanOut >= fanOutEveryMs) {
            lastFanOut = Date.now();
            fanOutFull = (await fanOut(o.store, o.now())) >= FANOUT_BATCH;
            if (fanOutFull) rung = true;
          }
          const free = concurrency - inFlight.size;
          if (free > 0) {
            const batches = await claimBatches(o.store, o.now(), free, o.schedule.leaseMs);
            for (const b of batches) track(run(b));
            if (batches.length === free) rung = true;
          }
        } catch (err) {
          o.logger.warn({ code: "notification_claim_failed" }, err);
        }
      }
      if (!running) break;
      if (!rung) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, o.pollMs);
          function done() {
            clearTimeout(timer);
            sleeping = null;
            resolve();
          }
          sleeping = done;
        });
        rung = true;
      }
    }
  })();

  return {
    wake,
    async stop(graceMs = 20_000) {
      if (!running) return;
      running = false;
      unsubscribe();
      sleeping?.();
      await loop;
      const grace = setTimeout(() => abort.abort(), graceMs);
      await Promise.allSettled([...inFlight]);
      clearTimeout(grace);
      abort.abort();
    },
  };
}
