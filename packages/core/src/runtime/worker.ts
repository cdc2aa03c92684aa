import type { CairnConfig } from "../context.js";
import { type Claimed, claimDue, recordAttempt, releaseClaim } from "../events/deliver.js";
import { type Job, runDueJobs } from "../events/jobs.js";
import { DEFAULT_SCHEDULE, type RetrySchedule } from "../events/schedule.js";
import { sendEvent } from "../events/send.js";
import { onOutboxRing } from "../events/wake.js";
import { defaultLogger, type Logger } from "../log.js";
import { logLoopFailure } from "../outage-log.js";
import type { Store } from "../store/port.js";
import { untilAvailable } from "../store/until-available.js";
import { type ClaimLoop, startClaimLoop } from "./claim-loop.js";
import { JOBS } from "./job-list.js";
import { startNotifier } from "./notifier.js";

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

/** `stop` stops claiming, lets in-flight deliveries finish within `graceMs`, then aborts and releases them. */
export type Worker = ClaimLoop;

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
  const jobs = options.jobs ?? JOBS;
  const logger = options.logger ?? defaultLogger;
  const log = (line: string) => logger.info("job_note", { line });
  const denyPrivate = options.denyPrivate ?? false;
  const timeout = options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {};

  // Notifications (SPEC §27) share the schedule, the lease and the clock, with slots of their own.
  const notifier = startNotifier({ store, config, now, schedule, denyPrivate, logger, pollMs, ...timeout });

  let lastJobs = 0;
  let jobsRunning: Promise<unknown> | null = null;
  const maybeRunJobs = (signal: AbortSignal) => {
    if (jobsRunning || jobs.length === 0 || Date.now() - lastJobs < jobsEveryMs) return;
    lastJobs = Date.now();
    jobsRunning = runDueJobs({ store, config, now, log, logger, signal }, jobs)
      .catch((err) => logLoopFailure(logger, { code: "jobs_failed" }, err))
      .finally(() => {
        jobsRunning = null;
      });
  };

  const outbox = startClaimLoop<Claimed>({
    pollMs,
    concurrency: options.concurrency ?? 8,
    onRing: onOutboxRing,
    everyTurn: maybeRunJobs,
    claim: (free) => claimDue(store, now(), free, schedule.leaseMs),
    async work(c, signal) {
      // The lease is ours until then: a record lost to a failover is tried again within it, so the
      // event is not sent a second time when the lease ends (recordAttempt is guarded by attempts).
      const leaseEnds = Date.now() + schedule.leaseMs - 1_000;
      const result = await sendEvent(c.url, c.secrets, c.event_id, c.payload, { denyPrivate, signal, ...timeout });
      if (signal.aborted && result.status === null) return releaseClaim(store, c, now());
      await untilAvailable(() => recordAttempt(store, c, result, now(), schedule), leaseEnds);
    },
    logger,
    codes: { claimFailed: "webhook_claim_failed", workFailed: "webhook_record_failed" },
  });

  return {
    wake: outbox.wake,
    async stop(graceMs = 20_000) {
      const notifierStopped = notifier.stop(graceMs);
      await outbox.stop(graceMs);
      await jobsRunning;
      await notifierStopped;
    },
  };
}
