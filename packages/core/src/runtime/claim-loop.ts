import type { Logger } from "../log.js";
import { logLoopFailure } from "../outage-log.js";

export interface ClaimLoopOptions<T> {
  /** How often to look for due work when nothing rang (other processes' writes, due retries). */
  pollMs: number;
  /** Claims in flight at once in this process. */
  concurrency: number;
  /** Subscribes `wake` to this process's rings; answers the unsubscribe. */
  onRing(wake: () => void): () => void;
  /**
   * Claims at most `free` due items under a lease; the store's claim skips rows another
   * process holds, so any number of processes share the work through the database.
   */
  claim(free: number): Promise<T[]>;
  /**
   * Works one claimed item: sends it and records the attempt (the retry schedule and the
   * lease live in the store's claim). Aborted by `signal` once `stop`'s grace has passed.
   */
  work(item: T, signal: AbortSignal): Promise<void>;
  /** Runs before each claim; answers true when more is waiting than it handled (look again at once). */
  beforeClaim?(): Promise<boolean>;
  /** Runs on every turn of the loop, rung or not (scheduled jobs). */
  everyTurn?(signal: AbortSignal): void;
  logger: Logger;
  /** Log codes of a failed claim and a failed item. */
  codes: { claimFailed: string; workFailed: string };
}

export interface ClaimLoop {
  /** Look for due work now. */
  wake(): void;
  /** Stops claiming; lets items in flight finish within `graceMs`, then aborts them. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The one claim loop of every worker (the outbox's webhooks and the notifier): poll, wake
 * on a ring, claim what is free under a lease, work each item, look again at once after a
 * full batch, and stop without losing anything (an aborted item gives its claim back; a
 * killed process's leases expire and another takes them over).
 */
export function startClaimLoop<T>(o: ClaimLoopOptions<T>): ClaimLoop {
  const abort = new AbortController();
  let running = true;
  let rung = true;
  let sleeping: (() => void) | null = null;
  const inFlight = new Set<Promise<void>>();
  const wake = () => {
    rung = true;
    sleeping?.();
  };
  const unsubscribe = o.onRing(wake);

  const track = (p: Promise<void>) => {
    const t = p
      .catch((err) => logLoopFailure(o.logger, { code: o.codes.workFailed }, err))
      .finally(() => {
        inFlight.delete(t);
        wake();
      });
    inFlight.add(t);
  };

  const turn = async () => {
    rung = false;
    try {
      if (o.beforeClaim && (await o.beforeClaim())) rung = true;
      const free = o.concurrency - inFlight.size;
      if (free <= 0) return;
      const claimed = await o.claim(free);
      for (const item of claimed) track(o.work(item, abort.signal));
      // A full batch may mean more is due.
      if (claimed.length === free) rung = true;
    } catch (err) {
      logLoopFailure(o.logger, { code: o.codes.claimFailed }, err);
    }
  };

  const sleep = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, o.pollMs);
      function done() {
        clearTimeout(timer);
        sleeping = null;
        resolve();
      }
      sleeping = done;
    });

  const loop = (async () => {
    while (running) {
      o.everyTurn?.(abort.signal);
      if (rung) await turn();
      if (!running) break;
      if (!rung || o.concurrency - inFlight.size <= 0) {
        await sleep();
        // A poll tick counts as a ring: other processes' work and due retries are found this way.
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
