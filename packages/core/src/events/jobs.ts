import type { CairnConfig } from "../context.js";
import { defaultLogger, type Logger } from "../log.js";
import { logLoopFailure } from "../outage-log.js";
import type { Store } from "../store/port.js";

/** What a scheduled job gets: the store, the configuration, the clock, a log, and a signal that fires on shutdown. */
export interface JobContext {
  store: Store;
  config: CairnConfig;
  now: () => Date;
  /** A line for the operator (a job's own notes). Never log submitted values. */
  log: (line: string) => void;
  /** The process logger; failures of a job are reported here (default: stderr). */
  logger?: Logger;
  signal: AbortSignal;
}

/**
 * A scheduled job. Every worker process (`cairn serve`, `cairn worker`) runs the same list;
 * a lease row in `job_runs` lets exactly one of them run a due job at a time. `run`
 * should work in bounded batches and return how many things it handled.
 */
export interface Job {
  name: string;
  everyMs: number;
  /** How long a run may hold the job before another process may take it over (default 10 min). */
  leaseMs?: number;
  run(ctx: JobContext): Promise<{ count: number }>;
}

export const defineJob = (job: Job): Job => job;

const DEFAULT_LEASE_MS = 10 * 60_000;

/** The last recorded run of a job, as doctor reads it. */
export interface JobRun {
  name: string;
  next_at: string;
  started_at: string | null;
  finished_at: string | null;
  last_count: number | null;
  last_error: string | null;
  runs: number;
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/**
 * Claims the job if it is due: one conditional update, so of several processes racing
 * for the same row exactly one sees it due (the others re-check after its commit and
 * find next_at moved past the lease).
 */
async function claim(store: Store, job: Job, now: Date): Promise<boolean> {
  await store.query("insert into job_runs (name, next_at) values ($1, $2) on conflict (name) do nothing", [job.name, now.toISOString()]);
  const rows = await store.query("update job_runs set next_at = $3, started_at = $2 where name = $1 and next_at <= $2 returning name", [
    job.name,
    now.toISOString(),
    new Date(now.getTime() + (job.leaseMs ?? DEFAULT_LEASE_MS)).toISOString(),
  ]);
  return rows.length > 0;
}

async function finish(store: Store, job: Job, started: Date, finished: Date, count: number | null, error: string | null) {
  await store.query(
    `update job_runs set next_at = $2, finished_at = $3, last_count = $4, last_error = $5, runs = runs + 1
      where name = $1 and started_at = $6`,
    [job.name, new Date(started.getTime() + job.everyMs).toISOString(), finished.toISOString(), count, error, started.toISOString()],
  );
}

/** Runs every due job once (each under its lease) and returns the names of those that ran. */
export async function runDueJobs(ctx: JobContext, jobs: readonly Job[]): Promise<string[]> {
  const ran: string[] = [];
  for (const job of jobs) {
    if (ctx.signal.aborted) break;
    const started = ctx.now();
    if (!(await claim(ctx.store, job, started))) continue;
    try {
      const { count } = await job.run(ctx);
      await finish(ctx.store, job, started, ctx.now(), count, null);
    } catch (err) {
      const reason = String((err as { code?: unknown }).code ?? (err as Error)?.name ?? "error");
      logLoopFailure(ctx.logger ?? defaultLogger, { code: "job_failed", job: job.name }, err);
      await finish(ctx.store, job, started, ctx.now(), null, reason).catch(() => {});
    }
    ran.push(job.name);
  }
  return ran;
}

/** Every job's last run, for doctor and status. */
export async function readJobRuns(store: Pick<Store, "query">): Promise<JobRun[]> {
  const rows = await store.query<JobRun>("select name, next_at, started_at, finished_at, last_count, last_error, runs from job_runs order by name");
  return rows.map((r) => ({ ...r, next_at: iso(r.next_at) as string, started_at: iso(r.started_at), finished_at: iso(r.finished_at) }));
}
