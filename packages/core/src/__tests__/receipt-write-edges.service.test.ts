import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCairn } from "../cairn.js";
import { receiveTraces } from "../otlp/receive.js";
import type { ReceiptGate } from "../receipt/custom-gate.js";
import { openStore } from "../store/open.js";
import type { Store } from "../store/port.js";
import {
  createTestDatabase,
  createTestWorld,
  DRIVERS,
  type Driver,
  minimalReceipt,
  TEST_PUBLIC_URL,
  type TestDatabase,
  type TestWorld,
} from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

const count = async (store: Store, table: "artifacts" | "drops", owner: string) =>
  Number((await store.query<{ n: number }>(`select count(*)::int as n from ${table} where owner = $1`, [owner]))[0]?.n);

describe.each(DRIVERS)("the receipt write at its edges on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("an expired receipt is no duplicate: the same receipt sent again after its life ended is stored", async () => {
    let clock = new Date();
    const timed = createCairn(fx.store, { publicUrl: TEST_PUBLIC_URL }, () => clock);
    const sam = await fx.world.user("sam");
    const raw = minimalReceipt({ learned: "short-lived", expires_in: 60 });
    const first = await timed.invoke("receipt_create", timed.context(sam.principal, "rest"), raw);
    clock = new Date(clock.getTime() + 5 * 60_000);
    await expect(timed.invoke("artifact_read", timed.context(sam.principal, "rest"), { id: first.id })).rejects.toMatchObject({ code: "gone" });
    const again = await timed.invoke("receipt_create", timed.context(sam.principal, "rest"), raw);
    expect(again.id).not.toBe(first.id);
    expect(await count(fx.store, "drops", `user:${sam.name}`)).toBe(0);
  });

  it("a retained receipt stays a duplicate after its expiry time", async () => {
    let clock = new Date();
    const timed = createCairn(fx.store, { publicUrl: TEST_PUBLIC_URL }, () => clock);
    const sam = await fx.world.user("sam");
    const raw = minimalReceipt({ learned: "kept", expires_in: 60 });
    const first = await timed.invoke("receipt_create", timed.context(sam.principal, "rest"), raw);
    await fx.store.query("update artifacts set retained = true where id = $1", [first.id]);
    clock = new Date(clock.getTime() + 5 * 60_000);
    const err = await rejectionOf(timed.invoke("receipt_create", timed.context(sam.principal, "rest"), raw));
    expect(err.code).toBe("duplicate");
    expect(err.existing?.id).toBe(first.id);
  });

  it("follows naming an expired receipt is refused as foreign-link, with a drop", async () => {
    let clock = new Date();
    const timed = createCairn(fx.store, { publicUrl: TEST_PUBLIC_URL }, () => clock);
    const sam = await fx.world.user("sam");
    const target = await timed.invoke("receipt_create", timed.context(sam.principal, "rest"), minimalReceipt({ learned: "target", expires_in: 60 }));
    clock = new Date(clock.getTime() + 5 * 60_000);
    const err = await rejectionOf(
      timed.invoke("receipt_create", timed.context(sam.principal, "rest"), minimalReceipt({ learned: "late", follows: target.id })),
    );
    expect(err.code).toBe("validation_failed");
    expect(err.issues).toEqual([{ field: "follows", reason: "names no receipt of the same owner" }]);
    expect(err.drop).toMatchObject({ category: "foreign-link" });
    expect(await count(fx.store, "drops", `user:${sam.name}`)).toBe(1);
  });

  it("follows is checked under the write's locks: a target that expires after the gates read it is refused", async () => {
    const store = fx.store;
    const sam = await fx.world.user("sam");
    const target = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "soon gone" }));
    // An operator gate runs after the follows gate and before the write: the target expires in between.
    const expireTarget: ReceiptGate = {
      name: "expire-target",
      async check() {
        await store.query("update artifacts set expires_at = now() - interval '1 second' where id = $1", [target.id]);
        return null;
      },
    };
    const racing = createCairn(store, { publicUrl: TEST_PUBLIC_URL }, { gates: [expireTarget] });
    const err = await rejectionOf(
      racing.invoke("receipt_create", racing.context(sam.principal, "rest"), minimalReceipt({ learned: "after", follows: target.id })),
    );
    expect(err.drop).toMatchObject({ category: "foreign-link" });
    expect(await count(store, "artifacts", `user:${sam.name}`)).toBe(1);
  });

  it("10 concurrent retries of one refused body under one key leave one drop and all get the first answer", async () => {
    const sam = await fx.world.user("sam");
    const raw = minimalReceipt({ learned: "" });
    const errors = await Promise.all(
      Array.from({ length: 10 }, () => rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx("rest", { idempotencyKey: "k-refused" }), raw))),
    );
    expect(new Set(errors.map((e) => JSON.stringify(e.toBody()))).size).toBe(1);
    expect(await count(fx.store, "drops", `user:${sam.name}`)).toBe(1);
  });
});

/** A store whose database defaults to repeatable read, as an operator may have set it. */
async function openRepeatableReadStore(driver: Driver): Promise<{ store: Store; db: TestDatabase }> {
  const db = await createTestDatabase(driver);
  const options = { databaseUrl: db.databaseUrl, dataDir: db.dataDir };
  const first = await openStore(options);
  if (driver === "pglite") {
    // The embedded store reads no per-database settings; its configuration file is where an operator would set it.
    await first.query("alter system set default_transaction_isolation = 'repeatable read'");
  } else {
    const [name] = await first.query<{ db: string }>("select current_database() as db");
    await first.query(`alter database "${name?.db}" set default_transaction_isolation = 'repeatable read'`);
  }
  await first.close();
  return { store: await openStore(options), db };
}

describe.each(DRIVERS)("duplicate detection under a repeatable-read default on %s", (driver) => {
  let store: Store;
  let db: TestDatabase;
  let world: TestWorld;
  beforeAll(async () => {
    ({ store, db } = await openRepeatableReadStore(driver));
    world = await createTestWorld(store);
  });
  afterAll(async () => {
    await store?.close();
    await db?.dispose();
  });

  it("the database really defaults to repeatable read", async () => {
    const [row] = await store.query<{ level: string }>("select current_setting('transaction_isolation') as level");
    expect(row?.level).toBe("repeatable read");
  });

  it("8 concurrent identical submissions store exactly one receipt; the others are duplicates of it (5 rounds)", async () => {
    const sam = await world.user("sam");
    for (let round = 0; round < 5; round++) {
      const raw = minimalReceipt({ learned: `raced under repeatable read, round ${round}` });
      const settled = await Promise.allSettled(Array.from({ length: 8 }, () => world.cairn.invoke("receipt_create", sam.ctx(), raw)));
      const refused = settled.flatMap((s) => (s.status === "rejected" ? [(s.reason as { code: string }).code] : []));
      expect({ round, stored: settled.length - refused.length, refused }).toEqual({ round, stored: 1, refused: Array(7).fill("duplicate") });
    }
    expect(await count(store, "artifacts", `user:${sam.name}`)).toBe(5);
  });

  it("concurrent retries under one key store one receipt", async () => {
    const sam = await world.user("sam");
    const raw = minimalReceipt({ learned: "keyed under repeatable read" });
    const results = await Promise.all(Array.from({ length: 6 }, () => world.cairn.invoke("receipt_create", sam.ctx("rest", { idempotencyKey: "rr" }), raw)));
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(await count(store, "artifacts", `user:${sam.name}`)).toBe(1);
  });

  it("concurrent OTLP exports of one trace meet in one run and store each span once", async () => {
    const sam = await world.user("sam");
    const traceId = "ab".repeat(16);
    const spanIds = Array.from({ length: 10 }, (_, i) => (i + 1).toString(16).padStart(16, "0"));
    const exportOf = (ids: string[]) => ({
      body: Buffer.from(
        JSON.stringify({
          resourceSpans: [{ scopeSpans: [{ spans: ids.map((spanId) => ({ traceId, spanId, name: "step", startTimeUnixNano: "1764600000000000000" })) }] }],
        }),
      ),
      contentType: "application/json",
      contentEncoding: undefined,
    });
    // Five exports at once, each six spans overlapping the next's.
    const replies = await Promise.all(Array.from({ length: 5 }, (_, i) => receiveTraces(sam.ctx(), exportOf(spanIds.slice(i, i + 6)))));
    const results = replies.map((r) => r.result as { stored: number; unchanged: number; rejected: number });
    expect(replies.map((r) => r.code)).toEqual(Array(5).fill("ok"));
    expect(results.reduce((n, r) => n + r.stored, 0)).toBe(10);
    const runs = await store.query<{ span_count: number }>("select span_count from runs where trace_id = $1", [traceId]);
    expect(runs).toEqual([{ span_count: 10 }]);
  });
});
