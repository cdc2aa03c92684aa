import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CairnError } from "../errors.js";
import type { StoreError } from "../store/faults.js";
import { openStore } from "../store/open.js";
import { openPgStore } from "../store/pg.js";
import type { Store } from "../store/port.js";
import { CONCURRENCY_DRIVERS, createTestDatabase, PG_ADMIN_URL, type TestDatabase } from "../testing/index.js";
import { type PgBouncer, startPgBouncer } from "../testing/pgbouncer.js";

const SERVER_DRIVERS = CONCURRENCY_DRIVERS.filter((d) => d !== "pglite");

async function failureOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected a failure");
}

// SPEC §23: no session state is relied on, so PgBouncer in transaction mode changes nothing.
describe.each(SERVER_DRIVERS)("the PostgreSQL store's session state on %s", (driver) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(driver);
  });
  afterAll(() => db?.dispose());

  it("the server cancels a transaction's statement after CAIRN_DB_STATEMENT_TIMEOUT_MS, though no startup parameter carried it", async () => {
    const store = await openPgStore(db.databaseUrl as string, { timeouts: { connectMs: 2_000, statementMs: 300 } });
    try {
      const started = performance.now();
      const err = await failureOf(store.transaction((tx) => tx.query("select pg_sleep(3)")));
      // The client would give up only at 1.3 s; 57014 is the server's own cancel.
      expect(performance.now() - started).toBeLessThan(1_200);
      expect(err).toBeInstanceOf(CairnError);
      expect((err as CairnError).code).toBe("unavailable");
      expect(((err as { cause?: unknown }).cause as StoreError).code).toBe("57014");
      // The store is usable afterwards; outside a transaction the database's own setting applies (4 s in tests).
      expect(await store.query<{ statement_timeout: string }>("show statement_timeout")).toEqual([{ statement_timeout: "4s" }]);
    } finally {
      await store.close();
    }
  });
});

describe.runIf(SERVER_DRIVERS.includes("pgbouncer"))("behind PgBouncer with one server connection", () => {
  let db: TestDatabase;
  let bouncer: PgBouncer;
  let url: string;
  beforeAll(async () => {
    db = await createTestDatabase("pg");
    bouncer = await startPgBouncer({ target: PG_ADMIN_URL, poolSize: 1 });
    url = bouncer.through(db.databaseUrl as string);
  });
  afterAll(async () => {
    await bouncer?.stop();
    await db?.dispose();
  });

  const showTimeout = async () => {
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      return (await other.query<{ statement_timeout: string }>("show statement_timeout")).rows[0]?.statement_timeout;
    } finally {
      await other.end();
    }
  };

  it("a transaction's timeout and locks end with it: the next client on the same server connection inherits nothing", async () => {
    const store = await openPgStore(url, { timeouts: { connectMs: 2_000, statementMs: 300 } });
    try {
      await store.transaction((tx) => tx.query("select 1"), { locks: ["cairn.pooler-test"] });
      expect(await showTimeout()).toBe("4s"); // the database's own default, not the transaction's 300 ms
      // Another client takes the same lock at once: it was released at commit, not at disconnect.
      const other = await openPgStore(url);
      try {
        await other.transaction((tx) => tx.query("select 1"), { locks: ["cairn.pooler-test"] });
      } finally {
        await other.close();
      }
      // What a session setting would do behind a transaction pooler: it leaks to whoever comes next.
      await store.query("set statement_timeout = 300");
      expect(await showTimeout()).toBe("300ms");
      await store.query("reset statement_timeout");
    } finally {
      await store.close();
    }
  });

  it("CAIRN_MIGRATE_URL migrates over the direct connection and serves through PgBouncer", async () => {
    const store: Store = await openStore({ databaseUrl: url, migrateUrl: db.databaseUrl as string });
    try {
      const applied = await store.query<{ n: number }>("select count(*) as n from schema_migrations");
      expect(applied[0]?.n).toBeGreaterThan(10);
    } finally {
      await store.close();
    }
    await expect(openStore({ dataDir: "/nonexistent", migrateUrl: db.databaseUrl as string })).rejects.toThrow(/CAIRN_MIGRATE_URL needs DATABASE_URL/);
  });
});
