import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreError } from "../store/faults.js";
import type { Store } from "../store/port.js";
import { CONCURRENCY_DRIVERS, eventually, openTestStore } from "../testing/index.js";

/** Advisory locks some backend of this database waits for (other databases on the server are not ours). */
const waitingAdvisoryLocks = async (store: Store) =>
  Number(
    (
      await store.query<{ n: number }>(
        "select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())",
      )
    )[0]?.n,
  );

describe.each(CONCURRENCY_DRIVERS)("store transactions (%s)", (driver) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(driver);
    await store.query("create table lock_log (seq serial primary key, who text not null)");
  });
  afterAll(() => store.close());

  it("a transaction's locks make a second writer of the same key wait for the first to commit", async () => {
    const key = `o'brien \\ ${driver}`; // quotes and a backslash reach the lock as data
    let releaseFirst: () => void = () => {};
    const firstHolds = new Promise<void>((r) => {
      releaseFirst = r;
    });
    let firstStarted: () => void = () => {};
    const started = new Promise<void>((r) => {
      firstStarted = r;
    });
    const first = store.transaction(
      async (tx) => {
        firstStarted();
        await firstHolds;
        await tx.query("insert into lock_log (who) values ('first')");
      },
      { locks: [key, "second key"] },
    );
    await started;
    const second = store.transaction(
      async (tx) => {
        // Its first statement sees the first writer's row: the lock was taken before it ran.
        const seen = await tx.query<{ who: string }>("select who from lock_log order by seq");
        await tx.query("insert into lock_log (who) values ('second')");
        return seen.map((r) => r.who);
      },
      { locks: [key] },
    );
    // PostgreSQL: the second writer is seen waiting for the lock. PGlite runs one transaction at a time, so the second cannot start before the first ends.
    if (driver !== "pglite") await eventually(async () => (await waitingAdvisoryLocks(store)) > 0);
    releaseFirst();
    await first;
    expect(await second).toEqual(["first"]);
  });

  it("a failing query names our call site, not only the driver's internals", async () => {
    const err = await store.query("select * from no_such_table").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe("42P01");
    expect((err as StoreError).stack).toMatch(/store-transactions\.test\.ts/);
  });
});
