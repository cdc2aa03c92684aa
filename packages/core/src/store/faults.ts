import { CairnError, unavailable } from "../errors.js";
import { type DatabaseErrorKind, processMetrics } from "../metrics/registry.js";

/**
 * Timeouts of the PostgreSQL driver, in milliseconds. A stuck database (accepts the
 * connection, never answers) then costs a request a few seconds and a 503, never a hang.
 */
export interface DatabaseTimeouts {
  /** Opening a connection, or waiting for a free one in the pool. */
  connectMs: number;
  /** Server-side `statement_timeout`; the client gives up shortly after it on its own. */
  statementMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { connectMs: 2_000, statementMs: 4_000 };

/** `CAIRN_DB_CONNECT_TIMEOUT_MS` / `CAIRN_DB_STATEMENT_TIMEOUT_MS` override the defaults. */
export function databaseTimeoutsFrom(env: NodeJS.ProcessEnv = process.env): DatabaseTimeouts {
  const read = (name: string, fallback: number) => {
    const n = Number(env[name]);
    return Number.isInteger(n) && n > 0 ? n : fallback;
  };
  return {
    connectMs: read("CAIRN_DB_CONNECT_TIMEOUT_MS", DEFAULT_DATABASE_TIMEOUTS.connectMs),
    statementMs: read("CAIRN_DB_STATEMENT_TIMEOUT_MS", DEFAULT_DATABASE_TIMEOUTS.statementMs),
  };
}

// SQLSTATE classes and codes that mean "the database is not there", not "the query is wrong":
// 08 connection exception, 53 insufficient resources (53300 too many connections), 57P0x
// shutdown, crash or "starting up" (57P03), 57014 a statement cancelled by
// statement_timeout; and a server that refuses the connection itself (ADR 0029): 55000 the
// database does not accept connections now, 3D000 the database is not there (dropped or
// renamed), 28000 / 28P01 the role may not log in or its password changed; 25006 a write
// reached a host that is read-only now (a primary demoted by a failover, ADR 0085). Each is an
// operator's fix, not the caller's: 503 and retry, never 500.
const UNAVAILABLE_SQLSTATE = /^(08...|53...|57P0.|57014|55000|3D000|28000|28P01|25006)$/;
const UNAVAILABLE_ERRNO = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "ENOTFOUND", "EAI_AGAIN"]);
// node-postgres reports its own timeouts and lost sockets as plain Errors with these texts.
const UNAVAILABLE_MESSAGE =
  /timeout exceeded when trying to connect|timeout expired|Connection terminated|Query read timeout|Client has encountered a connection error|Connection ended|PGlite is closed|Cannot use a pool after calling end/i;

export function isUnavailable(err: unknown): boolean {
  if (err instanceof CairnError) return err.code === "unavailable";
  const e = err as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === "string" && (UNAVAILABLE_SQLSTATE.test(e.code) || UNAVAILABLE_ERRNO.has(e.code))) return true;
  return typeof e?.message === "string" && UNAVAILABLE_MESSAGE.test(e.message);
}

/**
 * A database error as the rest of Cairn sees it: its SQLSTATE (or errno) code and the
 * stack of our code that ran the query. The driver's error never leaves the store: it
 * carries the SQL text and its parameters (PGlite: `query`, `params`), and its message
 * quotes values, so nothing downstream (a log, a surface) can print them by accident.
 */
export class StoreError extends Error {
  readonly code: string | undefined;
  constructor(code: string | undefined, site: CallSite | undefined) {
    super(`database error${code ? ` ${code}` : ""}`);
    this.name = "StoreError";
    this.code = code;
    const frames = site?.stack?.split("\n").filter((line) => /^\s+at /.test(line)) ?? [];
    this.stack = [`StoreError: ${this.message}`, ...frames].join("\n");
  }
}

/** Where a query was issued; its stack text is only formatted if the query fails. */
export type CallSite = { readonly stack?: string | undefined };

/**
 * Our call site, taken where a failed query is caught, after its `await`: V8's async
 * stack trace then names the awaiting functions of our code (and nothing of the driver's
 * internals or WASM). Taken only on failure, so a query that succeeds costs nothing.
 */
export const callSite = (): CallSite => new Error();

/**
 * Every driver fault leaves the store translated: unreachable → `unavailable` (503 on
 * every surface), anything else → StoreError. Our own errors pass through unchanged.
 */
export function translateFault(err: unknown, site?: CallSite): unknown {
  if (err instanceof CairnError || err instanceof StoreError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const stored = new StoreError(typeof code === "string" && /^[A-Z0-9_]{1,40}$/.test(code) ? code : undefined, site);
  const unreachable = isUnavailable(err);
  processMetrics.databaseError(unreachable ? "unavailable" : errorKindOf(stored.code));
  if (!unreachable) return stored;
  const translated = unavailable();
  (translated as { cause?: unknown }).cause = stored;
  return translated;
}

/** A SQLSTATE's class as a metric label: a closed set, never the code itself. */
function errorKindOf(code: string | undefined): DatabaseErrorKind {
  if (code?.startsWith("40")) return "conflict";
  if (code?.startsWith("23")) return "constraint";
  if (code === "57014" || code === "55P03") return "timeout";
  return "other";
}

/**
 * A deadlock (40P01) or serialization failure (40001): the database rolled the transaction
 * back and it may simply run again (ADR 0041). Checked on the translated error.
 */
/**
 * What a write function that needs a new snapshot per statement (`cairn_write_receipt`,
 * `cairn_ingest_spans`) raises when called under another isolation level than read
 * committed, before it writes anything: the caller runs it again in a transaction the store
 * begins as read committed (ADR 0028).
 */
export const NOT_READ_COMMITTED = "CA001";

export function isLockConflict(err: unknown): boolean {
  return err instanceof StoreError && (err.code === "40P01" || err.code === "40001");
}
