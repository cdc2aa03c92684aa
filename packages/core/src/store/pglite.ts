import { PGlite } from "@electric-sql/pglite";
import { callSite, translateFault } from "./faults.js";
import type { Sql, Store } from "./port.js";

/** Embedded Postgres (WASM) on a data directory, or in memory when none is given. */
export async function openPgliteStore(dataDir?: string): Promise<Store> {
  const db = dataDir ? new PGlite(dataDir) : new PGlite();
  await db.waitReady;
  const [level] = (await db.query<{ level: string }>("select current_setting('default_transaction_isolation') as level")).rows;
  const pinIsolation = level?.level !== "read committed";

  // This process is the data directory's one user, so every change passes here: the count
  // moves when a statement is sent and when it ends (StoreChanges, ADR 0068).
  let moves = 0;
  const counted = async <T>(work: () => Promise<T>): Promise<T> => {
    moves++;
    try {
      return await work();
    } finally {
      moves++;
    }
  };
  // In process, the embedded store cannot be down or stuck; once closed it is unavailable, like a dead server.
  const rowsOf = async <T>(conn: Pick<PGlite, "query">, text: string, params: unknown[]) => {
    try {
      return (await conn.query<T>(text, params)).rows;
    } catch (err) {
      throw translateFault(err, callSite());
    }
  };
  const runner = (conn: Pick<PGlite, "query">, onCommit?: Array<() => void>): Sql => ({
    query: <T>(text: string, params: unknown[] = []) => counted(() => rowsOf<T>(conn, text, params)),
    afterCommit: (fn) => (onCommit ? onCommit.push(fn) : fn()),
  });

  let closed = false;
  return {
    driver: "pglite",
    ...runner(db),
    // PGlite runs every query and transaction under one mutex, so a transaction's advisory locks (options.locks) are already held.
    // Read committed whatever the configured default, as on PostgreSQL (ADR 0028). PGlite's
    // own `begin` takes no level, so it is set first, and only when needed: the embedded
    // store is one session, whose default (postgresql.conf) is read once here.
    async transaction(fn) {
      const onCommit: Array<() => void> = [];
      const out = await counted(() =>
        db.transaction(async (tx) => {
          if (pinIsolation) await tx.query("set transaction isolation level read committed");
          return fn(runner(tx, onCommit));
        }),
      );
      for (const f of onCommit) f();
      return out;
    },
    async exec(script) {
      await counted(() => db.exec(script));
    },
    changes: {
      count: () => moves,
      readOnly: <T>(text: string, params: unknown[] = []) => rowsOf<T>(db, text, params),
    },
    // A checkpoint first, so the copy needs little recovery; PGlite then copies the data
    // directory under its query lock, between statements and never inside a transaction.
    async dumpDataDir() {
      await counted(() => db.exec("checkpoint"));
      return db.dumpDataDir("gzip");
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.close();
    },
  };
}
