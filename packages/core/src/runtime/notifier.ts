import type { CairnConfig } from "../context.js";
import type { RetrySchedule } from "../events/schedule.js";
import type { Logger } from "../log.js";
import { claimBatches } from "../notify/deliver.js";
import { dispatchBatch } from "../notify/dispatch.js";
import { FANOUT_BATCH, fanOut } from "../notify/fanout.js";
import { onNotifierRing } from "../notify/wake.js";
import type { Store } from "../store/port.js";
import { type ClaimLoop, startClaimLoop } from "./claim-loop.js";

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

/**
 * The notifications half of every worker (`cairn serve`, `cairn worker`): fans new events
 * out to the channels of the people they concern, then claims due notifications channel
 * by channel and sends them. Shares work with other processes only through the database
 * (ADR 0055, 0056); `stop()` lets a send in flight finish, then gives unsent claims back.
 */
export function startNotifier(o: NotifierOptions): ClaimLoop {
  const timeoutMs = o.timeoutMs ?? 15_000;
  // A wake-up after each send must not mean a fan-out statement each time: on the embedded
  // store (one connection) it would queue in front of the writes. New events wait at most this long.
  const fanOutEveryMs = Math.max(100, Math.floor(o.pollMs / 2));
  let lastFanOut = 0;
  let fanOutFull = false;
  return startClaimLoop({
    pollMs: o.pollMs,
    concurrency: o.concurrency ?? 4,
    onRing: onNotifierRing,
    async beforeClaim() {
      // Fan out what was written since the last look; a full batch means more is waiting.
      if (!fanOutFull && Date.now() - lastFanOut < fanOutEveryMs) return false;
      lastFanOut = Date.now();
      fanOutFull = (await fanOut(o.store, o.now())) >= FANOUT_BATCH;
      return fanOutFull;
    },
    claim: (free) => claimBatches(o.store, o.now(), free, o.schedule.leaseMs),
    work: (batch, signal) =>
      dispatchBatch(
        {
          store: o.store,
          config: o.config,
          now: o.now,
          schedule: o.schedule,
          settings: () => ({ denyPrivate: o.denyPrivate, mail: o.config.mail, timeoutMs, signal }),
          stopping: () => signal.aborted,
        },
        batch,
      ),
    logger: o.logger,
    codes: { claimFailed: "notification_claim_failed", workFailed: "notification_failed" },
  });
}
