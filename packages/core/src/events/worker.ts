import { untilAvailable } from "../store/until-available.js";
import type { CairnConfig } from "../context.js";
import { defaultLogger, type Logger } from "../log.js";
import type { Store } from "../store/port.js";
import { claimDue, type Claimed, recordAttempt, releaseClaim } from "./deliver.js";
import { JOBS } from "./job-list.js";
import { type Job, runDueJobs } from "./jobs.js";
import { DEFAULT_SCHEDULE, type RetrySchedule } from "./schedule.js";
import { sendEvent } from "./send.js";
import { onOutboxRing } from "./wake.js";
import { startNotifier } from "../notify/notifier.js";

export interface WorkerOptions {
  store: Store;
  config: CairnConfig;
  /** Refuse loopback/private/link-local targets, checked on the resolved address (CAIRN_WEBHOOK_DENY_PRIVATE=1). */
  denyPrivate?: boolean;
  schedule?: RetrySchedule;
  now?: () => Date;
  /** How often to look for due work when nothing rang (other processes' events, retries). */
  pollMs?: number;
  /** How often to look for due scheduled jobs. */
  jobsEveryMs?: number;
  /** Deliveries in flight at once. */
  concurrency?: number;
  jobs?: readonly Job[];
  /** Per-attempt timeout (15 s). */
  timeoutMs?: number;
  logger?: Logger;
}

export interface Worker {
  /** Look for due work now. */
  wake(): void;
  /** Stops claiming; lets in-flight deliveries finish within `graceMs`, then aborts and releases them. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The delivery and job loop every `cairn serve` and `cairn worker` runs. Processes share
 * work only through Postgres (claims with SKIP LOCKED, job leases), so any number of them
 * can run, and a killed one loses nothing: its claims expire and are taken over.
 */
export function startWorker(options: WorkerOptions): Worker {
  const { store, config } = options;
  const now = options.now ?? (() => new Date());
  const schedule = options.schedule ?? DEFAULT_SCHEDULE;
  const pollMs = options.pollMs ?? 1_000;
  const jobsEveryMs = options.jobsEveryMs ?? 5_000;
  const concurrency = options.concurrency ?? 8;
  const jobs = options.jobs ?? JOBS;
  const logger = options.logger ?? defaultLogger;
  const log = (line: string) => logger.info("job_note", { line });
  const denyPrivate = options.denyPrivate ?? false;
  const abort = new AbortController();

  let running = true;
  let rung = true;
  let sleeping: (() => void) | null = null;
  const inFlight = new Set<Promise<void>>();
  const wake = () => {
    rung = true;
    sleeping?.();
  };
  const unsubscribe = onOutboxRing(wake);
  // Notifications (SPEC §27) share the schedule, the lease and the clock, with slots of their own.
  const notifier = startNotifier({
    store,
    config,
    now,
    schedule,
    denyPrivate,
    logger,
    pollMs,
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
  });

  const deliver = async (c: Claimed) => {
    // The lease is ours until then: a record lost to a failover is tried again within it, so the
    // event is not sent a second time when the lease ends (recordAttempt is guarded by attempts).
    const leaseEnds = Date.now() + schedule.leaseMs - 1_000;
    const result = await sendEvent(c.url, c.secrets, c.event_id, c.payload, {
      denyPrivate,
      signal: abort.signal,
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    });
    if (abort.signal.aborted && result.status === null) return releaseClaim(store, c, now());
    await untilAvailable(() => recordAttempt(store, c, result, now(), schedule), leaseEnds);
  };

  const track = (p: Promise<void>) => {
    const t = p
      .catch((err) => logger.warn({ code: "webhook_record_failed" }, err))
      .finally(() => {
        inFlight.delete(t);
        wake();
      });
    inFlight.add(t);
  };

  let lastJobs = 0;
  let jobsRunning: Promise<unknown> | null = null;
  const maybeRunJobs = () => {
    if (jobsRunning || jobs.length === 0 || Date.now() - lastJobs < jobsEveryMs) return;
    lastJobs = Date.now();
    jobsRunning = runDueJobs({ store, config, now, log, logger, signal: abort.signal }, jobs)
      .catch((err) => logger.warn({ code: "jobs_failed" }, err))
      .finally(() => {
        jobsRunning = null;
      });
  };

  const loop = (async () => {
    while (running) {
      maybeRunJobs();
      const free = concurrency - inFlight.size;
      let claimed: Claimed[] = [];
      if (free > 0 && rung) {
        rung = false;
        claimed = await claimDue(store, now(), free, schedule.leaseMs).catch((err) => {
          logger.warn({ code: "webhook_claim_failed" }, err);
          return [];
        });
        for (const c of claimed) track(deliver(c));
        // A full batch may mean more is due: look again at once.
        if (claimed.length === free) rung = true;
      }
      if (!running) break;
      if (!rung || concurrency - inFlight.size <= 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, pollMs);
          function done() {
            clearTimeout(timer);
            sleeping = null;
            resolve();
          }
          sleeping = done;
        });
        // A poll tick counts as a ring: other processes' events and due retries are found this way.
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
      const notifierStopped = notifier.stop(graceMs);
      await loop;
      const grace = setTimeout(() => abort.abort(), graceMs);
      await Promise.allSettled([...inFlight]);
      clearTimeout(grace);
      abort.abort();
      await jobsRunning;
      await notifierStopped;
    },
  };
}
