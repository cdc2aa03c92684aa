import { describeError, type Logger, type LogValue } from "./log.js";
import { isUnavailable } from "./store/faults.js";

/** An outage is logged at most once per kind in this interval, then a count of what was not. */
export const OUTAGE_LOG_INTERVAL_MS = 10_000;

interface Kind {
  /** When this kind's last line was written. */
  since: number;
  suppressed: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Per logger, so tests that capture their own lines never share counts with the process logger. */
const kindsOf = new WeakMap<Logger, Map<string, Kind>>();

/** Where the outage was met: `code` names it (default `database_unavailable`), the rest say where; only `requestId` is not part of its kind. */
export interface OutageSite {
  code?: string;
  surface?: string;
  requestId?: string | undefined;
  [field: string]: LogValue;
}

/**
 * A request answered 503 because the database is unreachable. While it is down every
 * request fails the same way, so a line per request (with its stack) only fills the disk:
 * one line per kind (surface, error class, SQLSTATE or errno) per OUTAGE_LOG_INTERVAL_MS,
 * without stack frames; the requests not logged are counted, and the count is written
 * (`suppressed=N`) when the interval ends, and that line opens the next interval: a long
 * outage writes one line per kind per interval, and no outage looks shorter than it was.
 */
export function logUnavailable(log: Logger, site: OutageSite, cause: unknown, clock: () => number = Date.now): void {
  const { code = "database_unavailable", requestId, ...where } = site;
  const { error, error_code } = describeError(cause).fields;
  const key = JSON.stringify([code, where, error, error_code]);
  let kinds = kindsOf.get(log);
  if (kinds === undefined) {
    kinds = new Map();
    kindsOf.set(log, kinds);
  }
  const now = clock();
  const kind = kinds.get(key);
  if (kind !== undefined && now - kind.since < OUTAGE_LOG_INTERVAL_MS) {
    kind.suppressed++;
    // The interval's one line of counts; it starts the next interval, so a long outage writes one line per interval.
    kind.timer ??= unrefTimer(
      () => {
        line(log, code, { ...where, error, error_code, suppressed: kind.suppressed, interval_ms: OUTAGE_LOG_INTERVAL_MS });
        kinds.set(key, { since: clock(), suppressed: 0, timer: undefined });
      },
      kind.since + OUTAGE_LOG_INTERVAL_MS - now,
    );
    return;
  }
  kinds.set(key, { since: now, suppressed: 0, timer: undefined });
  line(log, code, { requestId, ...where, error, error_code });
}

/** A background loop's failure: an unreachable database as above (it retries every turn), anything else with its stack. */
export function logLoopFailure(log: Logger, site: OutageSite & { code: string }, err: unknown): void {
  if (isUnavailable(err)) logUnavailable(log, site, (err as { cause?: unknown }).cause ?? err);
  else log.warn(site, err);
}

function line(log: Logger, code: string, fields: Record<string, LogValue>) {
  log.warn({ code, ...fields });
}

function unrefTimer(fn: () => void, ms: number) {
  const timer = setTimeout(fn, Math.max(0, ms));
  timer.unref?.();
  return timer;
}
