import { describe, expect, it } from "vitest";
import { createCairn } from "../cairn.js";
import type { Store } from "../store/port.js";
import { CONCURRENCY_DRIVERS, fullReceipt, minimalReceipt, TEST_PUBLIC_URL } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

const countDrops = async (store: Store, owner: string) =>
  Number((await store.query<{ n: number }>("select count(*)::int as n from drops where owner = $1", [owner]))[0]?.n);
const countReceipts = async (store: Store, owner: string) =>
  Number((await store.query<{ n: number }>("select count(*)::int as n from artifacts where owner = $1", [owner]))[0]?.n);

describe.each(CONCURRENCY_DRIVERS)("idempotency keys on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("the same key and input replay the first response: one receipt, no drop, whatever the key order", async () => {
    const sam = await fx.world.user("sam");
    const raw = fullReceipt({ learned: "idem" });
    const first = await fx.world.cairn.invoke("receipt_create", sam.ctx("rest", { idempotencyKey: "k-1" }), raw);
    const reordered = Object.fromEntries(Object.entries(raw).reverse());
    const again = await fx.world.cairn.invoke("receipt_create", sam.ctx("rest", { idempotencyKey: "k-1" }), reordered);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(await countReceipts(fx.store, `user:${sam.name}`)).toBe(1);
    expect(await countDrops(fx.store, `user:${sam.name}`)).toBe(0);
  });

  it("a refusal is replayed too, with the same drop, and leaves no second drop", async () => {
    const sam = await fx.world.user("sam");
    const raw = minimalReceipt({ learned: "" });
    const first = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx("rest", { idempotencyKey: "k-bad" }), raw));
    const again = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx("rest", { idempotencyKey: "k-bad" }), raw));
    expect(JSON.stringify(again.toBody())).toBe(JSON.stringify(first.toBody()));
    expect(await countDrops(fx.store, `user:${sam.name}`)).toBe(1);
  });

  it("the same key with another input is idempotency_mismatch, and leaves a drop naming the key", async () => {
    const sam = await fx.world.user("sam");
    await fx.world.cairn.invoke("receipt_create", sam.ctx("rest", { idempotencyKey: "k-2" }), minimalReceipt({ learned: "one" }));
    const err = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx("rest", { idempotencyKey: "k-2" }), minimalReceipt({ learned: "two" })));
    expect(err.code).toBe("idempotency_mismatch");
    expect(err.issues).toEqual([{ field: "idempotency_key", reason: "was already used with a different input in the last 24 hours" }]);
    expect(err.drop).toMatchObject({ category: "invalid", fields: ["idempotency_key"] });
    expect(await countReceipts(fx.store, `user:${sam.name}`)).toBe(1);
  });

  it("keys are per user, and free again after 24 hours", async () => {
    let clock = new Date();
    const timed = createCairn(fx.store, { publicUrl: TEST_PUBLIC_URL }, () => clock);
    const sam = await fx.world.user("sam");
    const kim = await fx.world.user("kim");
    const a = await timed.invoke("receipt_create", timed.context(sam.principal, "rest", { idempotencyKey: "shared" }), minimalReceipt({ learned: "a" }));
    const b = await timed.invoke("receipt_create", timed.context(kim.principal, "rest", { idempotencyKey: "shared" }), minimalReceipt({ learned: "b" }));
    expect(b.id).not.toBe(a.id);
    expect(b.owner).toBe(`user:${kim.name}`);
    clock = new Date(clock.getTime() + 25 * 3_600_000);
    const later = await timed.invoke(
      "receipt_create",
      timed.context(sam.principal, "rest", { idempotencyKey: "shared" }),
      minimalReceipt({ learned: "later" }),
    );
    expect(later.id).not.toBe(a.id);
  });

  it("concurrent retries with one key fx.store one receipt and all get the same answer", async () => {
    const sam = await fx.world.user("sam");
    const raw = fullReceipt({ learned: "race" });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => fx.world.cairn.invoke("receipt_create", sam.ctx("rest", { idempotencyKey: "k-race" }), raw)),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(await countReceipts(fx.store, `user:${sam.name}`)).toBe(1);
    expect(await countDrops(fx.store, `user:${sam.name}`)).toBe(0);
  });

  it("a malformed key is refused naming the key, with the limit", async () => {
    const sam = await fx.world.user("sam");
    const err = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx("rest", { idempotencyKey: "x".repeat(256) }), minimalReceipt()));
    expect(err.code).toBe("validation_failed");
    expect(err.issues).toEqual([{ field: "idempotency_key", reason: "is longer than 255 characters", limit: 255 }]);
    expect(err.drop?.fields).toEqual(["idempotency_key"]);
  });
});
