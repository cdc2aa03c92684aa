import type { Logger } from "../log.js";
import type { DatabaseTimeouts } from "./faults.js";
/** The one query interface both drivers implement. Rows come back as plain objects. */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs fn once what was written through this connection is committed: at the end of the
   * transaction (never after a rollback), or at once outside one (each statement commits).
   */
  afterCommit(fn: () => void): void;
}

export interface Store extends Sql {
  readonly driver: "pg" | "pglite";
  /** Only where this process is the store's one writer (the embedded store); see StoreChanges. */
  readonly changes?: StoreChanges;
  /** Runs fn in one transaction on one connection; rolls back if it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Runs a script of several statements (migrations). */
  exec(script: string): Promise<void>;
  /** The embedded store's data directory as a gzipped tar, consistent while it serves (`cairn backup`, ADR 0082). */
  dumpDataDir?(): Promise<Blob>;
  /** The connection pool's use right now (PostgreSQL); the embedded store has no pool. */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface TransactionOptions {
  /**
   * Advisory transaction locks (`pg_advisory_xact_lock(hashtext(key))`), taken in this
   * order before fn runs, so fn's first statement already sees every transaction that
   * held one of them. On PostgreSQL they go in the same round trip as `begin`; the
   * embedded store runs one transaction at a time, so there is nothing to wait for.
   */
  locks?: readonly string[];
}

export interface StoreOptions {
  /** Postgres connection string; when absent the embedded store is used. */
  databaseUrl?: string | undefined;
  /** Where migrations run instead of databaseUrl (default: CAIRN_MIGRATE_URL), e.g. a direct connection behind a pooler. */
  migrateUrl?: string | undefined;
  /**
   * A replica for the reads that may lag (default: CAIRN_READ_DATABASE_URL); see read-routing.ts.
   * PostgreSQL only: the embedded store has no replica.
   */
  readDatabaseUrl?: string | undefined;
  /** Data directory of the embedded store. */
  dataDir?: string | undefined;
  /** PostgreSQL connect and statement timeouts (default: `databaseTimeoutsFrom(process.env)`). */
  timeouts?: DatabaseTimeouts | undefined;
  /** Where the driver logs faults it survives (an idle connection lost). */
  logger?: Logger | undefined;
}

/**
 * How a reader knows that nothing changed: a count that moves whenever the store's data may
 * have. Every statement, transaction and script moves it when sent and again when done;
 * only statements sent through `readOnly`, which the caller vouches change nothing, leave
 * it be. What was read while the count stood still may be answered again until it moves
 * (ADR 0068). Only a store that one process alone writes can count: PostgreSQL is shared
 * by every `cairn serve` and `cairn worker`, so it has none.
 */
export interface StoreChanges {
  count(): number;
  readOnly<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}
