import { describe, expect, it } from "vitest";
import { rejectionOf, useTestWorld } from "../../__tests__/helpers.js";
import { DRIVERS, minimalReceipt } from "../../testing/index.js";
import { defineJob, readJobRuns, runDueJobs } from "../jobs.js";
import { recordEvent } from "../outbox.js";
import { onOutboxRing } from "../wake.js";

interface EventRow {
  id: string;
  type: string;
  owner: string;
  payload: string;
}

describe.each(DRIVERS)("outbox on %s", (driver) => {
  const fx = useTestWorld(driver);
  const eventsOf = (owner: string) => fx.store.query<EventRow>("select id, type, owner, payload from events where owner = $1 order by id", [owner]);

  it("writes artifact.created for a plain artifact and for a receipt, with metadata only on the receipt", async () => {
    const sam = await fx.world.user("sam");
    const plain = await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Log", body: "hello" });
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "outbox" }));
    const rows = await eventsOf(`user:${sam.name}`);
    expect(rows.map((r) => r.type)).toEqual(["artifact.created", "artifact.created"]);
    const [first, second] = rows.map((r) => JSON.parse(r.payload));
    expect(first.id).toBe(rows[0]?.id);
    expect(first.data.id).toBe(plain.id);
    expect("metadata" in first.data).toBe(false);
    expect(second.data.id).toBe(receipt.id);
    expect(second.data.metadata).toEqual(receipt.metadata);
    expect(Object.keys(second.data).at(-1)).toBe("metadata");
  });

  it("writes nothing when the transaction rolls back, and rings only after commit", async () => {
    const owner = "user:nobody-rollback";
    await expect(
      fx.store.transaction(async (tx) => {
        await recordEvent(tx, { type: "receipt.measure_due", owner, data: { id: "art_x", title: "t", url: "u", owner, measure_at: "2026-01-01" } }, new Date());
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await eventsOf(owner)).toEqual([]);
  });

  it("wakes the worker after an event with a delivery commits, and never for an owner without subscriptions", async () => {
    let rings = 0;
    const off = onOutboxRing(() => {
      rings++;
    });
    try {
      const quiet = await fx.world.user("quiet");
      await fx.world.cairn.invoke("artifact_create", quiet.ctx(), { title: "Nobody listens", body: "x" });
      await fx.world.cairn.invoke("receipt_create", quiet.ctx(), minimalReceipt({ learned: "no subscriber" }));
      expect(rings).toBe(0);

      const sam = await fx.world.user("sam");
      await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: "http://127.0.0.1:9/hook", events: ["receipt.measure_due"] });
      // A type the subscription does not take queues nothing, so nothing is woken either.
      await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Not this type", body: "x" });
      expect(rings).toBe(0);
      const owner = `user:${sam.name}`;
      await fx.store.transaction(async (tx) => {
        await recordEvent(tx, { type: "receipt.measure_due", owner, data: { id: "art_x", title: "t", url: "u", owner, measure_at: "2026-01-01" } }, new Date());
        expect(rings).toBe(0);
      });
      expect(rings).toBe(1);
    } finally {
      off();
    }
  });

  it("announces a recoverable drop without field values, and not a duplicate", async () => {
    const sam = await fx.world.user("sam");
    const secretish = "a very particular value 7f3a";
    const thin = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), { ...minimalReceipt(), changed: "two", affected: secretish }));
    expect(thin.drop?.category).toBe("too-thin");
    const ok = minimalReceipt({ learned: "dup" });
    await fx.world.cairn.invoke("receipt_create", sam.ctx(), ok);
    expect((await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), ok))).code).toBe("duplicate");
    const rows = await eventsOf(`user:${sam.name}`);
    const dropped = rows.filter((r) => r.type === "receipt.dropped");
    expect(dropped).toHaveLength(1);
    const payload = JSON.parse(dropped[0]?.payload as string);
    expect(payload.data.category).toBe("too-thin");
    expect(dropped[0]?.payload).not.toContain(secretish);
    expect(dropped[0]?.payload).not.toContain('"two"');
  });

  it("runs a due job in exactly one of several racing workers and records the result", async () => {
    let runs = 0;
    const job = defineJob({
      name: `test.job.${driver}`,
      everyMs: 60_000,
      async run() {
        runs++;
        return { count: 7 };
      },
    });
    const ctx = { store: fx.store, config: fx.world.cairn.config, now: () => new Date(), log: () => {}, signal: new AbortController().signal };
    const results = await Promise.all([1, 2, 3, 4].map(() => runDueJobs(ctx, [job])));
    expect(results.flat()).toEqual([job.name]);
    expect(runs).toBe(1);
    expect(await runDueJobs(ctx, [job])).toEqual([]);
    const row = (await readJobRuns(fx.store)).find((r) => r.name === job.name);
    expect(row).toMatchObject({ last_count: 7, last_error: null, runs: 1 });
  });
});
