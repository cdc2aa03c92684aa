import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../store/port.js";
import { CONCURRENCY_DRIVERS, openTestStore } from "../testing/index.js";

/** A promise and the function that settles it. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * ADR 0041: a deadlock the lock order did not prevent is retried, never a 500. Two
 * transactions take two rows in opposite orders; PostgreSQL ends one (40P01), the store
 * runs it again, and both commit. (PGlite runs one transaction at a time: nothing to test.)
 */
describe.each(CONCURRENCY_DRIVERS.filter((d) => d !== "pglite"))("a deadlock on %s is retried", (driver) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(driver);
    await store.exec("create table lock_pair (id int primary key, v int not null); insert into lock_pair values (1, 0), (2, 0)");
  });
  afterAll(() => store.close());

  it("both transactions commit; the deadlock's victim ran twice", async () => {
    const aHolds = gate();
    const bHolds = gate();
    const runs = { a: 0, b: 0 };
    const a = store.transaction(async (tx) => {
      runs.a++;
      await tx.query("update lock_pair set v = v + 1 where id = 1");
      if (runs.a === 1) {
        aHolds.open();
        await bHolds.opened;
      }
      await tx.query("update lock_pair set v = v + 1 where id = 2");
    });
    const b = store.transaction(async (tx) => {
      runs.b++;
      await tx.query("update lock_pair set v = v + 1 where id = 2");
      if (runs.b === 1) {
        bHolds.open();
        await aHolds.opened;
      }
      await tx.query("update lock_pair set v = v + 1 where id = 1");
    });
    await Promise.all([a, b]);
    expect(runs.a + runs.b).toBe(3);
    expect(await store.query("select id, v from lock_pair order by id")).toEqual([
      { id: 1, v: 2 },
      { id: 2, v: 2 },
    ]);
  }, 30_000);
});
