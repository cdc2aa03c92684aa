/**
 * When to try again (SPEC §10): after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h —
 * eight attempts over about 27.6 hours, so a receiver down for a day loses nothing.
 */
export interface RetrySchedule {
  /** Delay before each retry; the first attempt goes out right after commit. */
  delays: readonly number[];
  /** Each delay is spread by ± this fraction, so a fleet of failed deliveries does not return in lockstep. */
  jitter: number;
  /** A subscription whose every attempt failed for this long is disabled. */
  disableAfterMs: number;
  /** Longest Retry-After honoured; a larger one is cut to this. */
  maxRetryAfterMs: number;
  /** How long a claimed delivery is held before another worker may take it (a crashed worker's claim expires). */
  leaseMs: number;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const DEFAULT_SCHEDULE: RetrySchedule = {
  delays: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
  jitter: 0.2,
  disableAfterMs: 5 * 24 * HOUR,
  maxRetryAfterMs: 24 * HOUR,
  leaseMs: 60 * SECOND,
};

/**
 * The wait before retry number `retry` (0 = the first retry), jittered, never shorter than
 * a receiver's Retry-After; null when the schedule is used up.
 */
export function retryDelay(schedule: RetrySchedule, retry: number, retryAfterMs?: number, random = Math.random): number | null {
  const base = schedule.delays[retry];
  if (base === undefined) return null;
  const jittered = Math.round(base * (1 + schedule.jitter * (2 * random() - 1)));
  const asked = retryAfterMs === undefined ? 0 : Math.min(retryAfterMs, schedule.maxRetryAfterMs);
  return Math.max(jittered, asked);
}
