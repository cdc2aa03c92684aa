import pg from "pg";
import { unavailable } from "../errors.js";
import { defaultLogger, type Logger } from "../log.js";
import { logUnavailable } from "../outage-log.js";
import { needsHostSelection, parseDatabaseUrl } from "./database-url.js";
import { callSite, type DatabaseTimeouts, DEFAULT_DATABASE_TIMEOUTS, isLockConflict, isUnavailable, type StoreError, translateFault } from "./faults.js";
import { HostPool } from "./host-pool.js";
import type { Sql, Store, TransactionOptions } from "./port.js";
import { verifiedClient } from "./verified-client.js";

// int8 (count(*), bigint) as a number so both drivers return the same JS types.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export interface PgStoreOptions {
  timeouts?: DatabaseTimeouts;
  logger?: Logger;
}

/**
 * `begin`, the transaction's isolation level, its statement timeout and its advisory locks
 * as one simple-protocol query: one round trip instead of 2 + locks. Keys are quoted by
 * the driver, never interpolated raw. The isolation level is pinned per transaction
 * (ADR 0028): every lock-then-read in Cairn relies on read committed, whatever the
 * database's default. The timeout is `set local` (ADR 0038): it ends with the
 * transaction, so behind PgBouncer in transaction mode it never reaches another client.
 */
function beginWithLocks(client: pg.PoolClient, keys: readonly string[], statementMs: number): string {
  const begin = `${BEGIN_READ_COMMITTED}; set local statement_timeout = ${statementMs}`;
  if (keys.length === 0) return begin;
  const locks = keys.map((k) => `pg_advisory_xact_lock(hashtext(${client.escapeLiteral(k)}))`).join(", ");
  return `${begin}; select ${locks}`;
}

/** What the store uses of a pool: node-postgres's own, or the host-choosing one over it. */
interface QueryPool {
  query<R extends pg.QueryResultRow>(text: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
  connect(): Promise<pg.PoolClient>;
  end(): Promise<void>;
}

const BEGIN_READ_COMMITTED = "begin isolation level read committed";

/** Tries of one transaction that a deadlock (40P01) or serialization failure (40001) ended. */
const CONFLICT_ATTEMPTS = 5;

export async function openPgStore(connectionString: string, options: PgStoreOptions = {}): Promise<Store> {
  const timeouts = options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS;
  // Interpolated into `set local`: a whole number of milliseconds, nothing else.
  const statementMs = Math.max(1, Math.trunc(Number(timeouts.statementMs)) || DEFAULT_DATABASE_TIMEOUTS.statementMs);
  const logger = options.logger ?? defaultLogger;
  const poolFor = (url: string, verify?: (client: pg.Client) => Promise<void>): pg.Pool => {
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      connectionTimeoutMillis: timeouts.connectMs,
      // No session settings, no startup parameters (PgBouncer refuses them): the statement timeout is set
      // per transaction; a statement outside one has the database role's (ADR 0038). The server cannot
      // cancel a statement it never received (a stuck network), so the client stops waiting on its own.
      query_timeout: statementMs + 1_000,
      keepAlive: true,
      ...(verify && { Client: verifiedClient(verify) }),
    });
    // A connection that drops (a restart or failover sends 57P01; a pooler dies) emits 'error' on its
    // client, and an 'error' nobody listens to ends the process. The pool listens only while a client
    // is idle and drops that listener on checkout (a transaction's client, between its statements),
    // so every client listens for its whole life from the moment the pool opens it (ADR 0042). Its
    // pending and next queries fail on their own (503 `unavailable`); the transaction then discards it.
    pool.on("connect", (client) => {
      // One line per interval however many connections drop at once (a restart drops them all).
      client.on("error", (err) => logUnavailable(logger, { code: "database_connection_lost" }, err));
    });
    // The pool's own report of an idle client's failure: the client's listener above has logged it.
    pool.on("error", () => {});
    return pool;
  };
  // Several hosts or a role to look for (libpq's multi-host URL): the store picks the host and picks again after a failover (ADR 0085).
  const target = /^postgres(ql)?:\/\//i.test(connectionString) ? parseDatabaseUrl(connectionString) : undefined;
  const hostPool =
    target && needsHostSelection(target)
      ? new HostPool({
          target,
          poolFor,
          connectMs: timeouts.connectMs,
          onChosen: (host) => logger.info("database_host_chosen", { host: host.host, port: host.port }),
        })
      : undefined;
  const pool: QueryPool = hostPool ?? poolFor(connectionString);
  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw translateFault(err, callSite());
    }
  };
  const [setting] = await guarded(() => pool.query<{ t: string }>("select current_setting('statement_timeout') as t")).then((r) => r.rows);
  // One statement outside a transaction (most reads, the receipt write) has only the role's
  // timeout on the server (ADR 0038): say so once, where an operator reads it, when there is none.
  if (setting?.t === "0") {
    logger.warn({ code: "database_role_without_statement_timeout", fix: "alter role ... set statement_timeout = '4s'" });
  }

  const runner = (client: Pick<QueryPool, "query">, onCommit?: Array<() => void>): Sql => ({
    query<T>(text: string, params: unknown[] = []) {
      return guarded(async () => (await client.query(text, params)).rows as T[]);
    },
    afterCommit: (fn) => (onCommit ? onCommit.push(fn) : fn()),
  });

  const once = async <T>(fn: (tx: Sql) => Promise<T>, options: TransactionOptions): Promise<T> => {
    const client = await guarded(() => pool.connect());
    const onCommit: Array<() => void> = [];
    let broken: Error | undefined;
    // Lost between two statements: nothing is pending to fail, so the next one (or commit) must.
    const lost = (err: Error) => {
      broken ??= err;
    };
    client.on("error", lost);
    try {
      await guarded(() => client.query(beginWithLocks(client, options.locks ?? [], statementMs)));
      const out = await fn(runner(client, onCommit));
      await guarded(() => client.query("commit"));
      for (const f of onCommit) f();
      return out;
    } catch (err) {
      // A connection that failed or timed out is discarded (no rollback to wait for); the server rolls back.
      hostPool?.faulted(client, err);
      if (isUnavailable(err)) broken ??= err as Error;
      else if (!broken) await client.query("rollback").catch(() => {});
      throw err;
    } finally {
      client.off("error", lost);
      client.release(broken);
    }
  };

  return {
    driver: "pg",
    ...runner(pool),
    async transaction(fn, options = {}) {
      // A deadlock or serialization failure the lock order (ADR 0041) did not prevent is retried
      // from the start, in a new transaction; one that keeps failing is a 503 to retry, never a 500.
      for (let attempt = 1; ; attempt++) {
        try {
          return await once(fn, options);
        } catch (err) {
          if (!isLockConflict(err)) throw err;
          if (attempt >= CONFLICT_ATTEMPTS) {
            logger.warn({ code: "database_lock_conflict", error_code: (err as StoreError).code, attempts: attempt });
            const translated = unavailable();
            (translated as { cause?: unknown }).cause = err;
            throw translated;
          }
          await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
        }
      }
    },
    async exec(script) {
      await guarded(() => pool.query(script));
    },
    poolStats: () => {
      const counted = hostPool ? hostPool.currentPool() : (pool as pg.Pool);
      if (!counted) return { total: 0, idle: 0, waiting: 0, max: 10 };
      return { total: counted.totalCount, idle: counted.idleCount, waiting: counted.waitingCount, max: counted.options.max ?? 10 };
    },
    async close() {
      await pool.end();
    },
  };
}
