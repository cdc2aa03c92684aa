import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cairn, createCairn } from "../../cairn.js";
import type { Principal } from "../../context.js";
import { authenticate } from "../../identity/tokens.js";
import { migrate } from "../../store/migrate.js";
import { openPgStore } from "../../store/pg.js";
import type { Store } from "../../store/port.js";
import { TEST_PUBLIC_URL } from "../../testing/fixtures.js";
import {
  CONCURRENCY_DRIVERS,
  createTestDatabase,
  createTestWorld,
  minimalReceipt,
  type TestDatabase,
  type TestUser,
  type TestWorld,
} from "../../testing/index.js";
import { decisionWaiters } from "../waiters.js";

const ASK = {
  options: [
    { id: "approve", label: "Approve" },
    { id: "reject", label: "Reject" },
  ],
};
const SERVER_DRIVERS = CONCURRENCY_DRIVERS.filter((d) => d !== "pglite");
let n = 0;
const asking = () => ({ ...minimalReceipt({ learned: `wait ${++n}` }), human_action: "Approve?", ask: ASK });

/** Two servers on one database (each its own pool and core), as two `cairn serve` processes. */
describe.each(SERVER_DRIVERS)("waiting for an answer on %s", (driver) => {
  let db: TestDatabase;
  let stores: Store[] = [];
  let world: TestWorld;
  let other: Cairn;
  let sam: TestUser;
  let samThere: Principal;

  beforeAll(async () => {
    db = await createTestDatabase(driver);
    stores = [await openPgStore(db.databaseUrl as string), await openPgStore(db.databaseUrl as string)];
    await migrate(stores[0] as Store);
    world = await createTestWorld(stores[0] as Store);
    other = createCairn(stores[1] as Store, { publicUrl: TEST_PUBLIC_URL });
    sam = await world.user("sam");
    samThere = (await authenticate(stores[1] as Store, sam.token)) ?? (null as never);
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    await db?.dispose();
  });

  const waitAndAnswer = async (answerer: Cairn, ctx: ReturnType<Cairn["context"]>) => {
    const receipt = await world.cairn.invoke("receipt_create", sam.ctx(), asking());
    const waiting = world.cairn.invoke("decision_wait", sam.ctx(), { id: receipt.id, wait: 10 }).then((state) => ({ state, at: performance.now() }));
    await new Promise((r) => setTimeout(r, 300)); // the waiter is registered and the poll is running
    const answeredAt = performance.now();
    await answerer.invoke("artifact_decide", ctx, { id: receipt.id, option: "approve" });
    const woke = await waiting;
    expect(woke.state).toMatchObject({ state: "decided", decision: { option: "approve", by: { user: sam.name } } });
    return woke.at - answeredAt;
  };

  it("wakes within 250 ms of an answer given on the same server", async () => {
    const latencies = [];
    for (let i = 0; i < 5; i++) latencies.push(await waitAndAnswer(world.cairn, sam.ctx()));
    expect(Math.max(...latencies)).toBeLessThan(250);
  });

  it("wakes within 1 s of an answer given on another server (no LISTEN: the process's one poll)", async () => {
    const latencies = [];
    for (let i = 0; i < 5; i++) latencies.push(await waitAndAnswer(other, other.context(samThere, "rest")));
    expect(Math.max(...latencies)).toBeLessThan(1_000);
  });

  it("answers an open ask at once without wait, and `open` when the wait runs out", async () => {
    const receipt = await world.cairn.invoke("receipt_create", sam.ctx(), asking());
    expect(await world.cairn.invoke("decision_wait", sam.ctx(), { id: receipt.id })).toEqual({ state: "open", decision: null });
    const started = performance.now();
    expect(await world.cairn.invoke("decision_wait", sam.ctx(), { id: receipt.id, timeout_s: 1 })).toEqual({ state: "open", decision: null });
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
  });

  it("holds 1,000 idle waiters at a few queries a second in all, not one per waiter", async () => {
    const receipts = [];
    for (let i = 0; i < 5; i++) receipts.push(await world.cairn.invoke("receipt_create", sam.ctx(), asking()));
    const registry = decisionWaiters(stores[0] as Store);
    const before = registry.polls;
    const abort = new AbortController();
    const ctx = world.cairn.context(sam.principal, "rest", { signal: abort.signal });
    // Waiters arrive as agents do, a few at a time: each costs one read when it arrives, none while it waits.
    const waits: Array<Promise<{ state: string }>> = [];
    for (let i = 0; i < 1_000; i++) {
      waits.push(world.cairn.invoke("decision_wait", ctx, { id: receipts[i % 5]?.id ?? "", wait: 60 }));
      if (i % 20 === 19) while (registry.size < i + 1) await new Promise((r) => setTimeout(r, 10));
    }
    const polled = registry.polls;
    const started = performance.now();
    await new Promise((r) => setTimeout(r, 4_000));
    const perSecond = (registry.polls - polled) / ((performance.now() - started) / 1000);
    expect(registry.size).toBe(1_000);
    expect(perSecond).toBeLessThanOrEqual(5);
    expect(perSecond).toBeGreaterThan(0);
    abort.abort();
    expect((await Promise.all(waits)).every((s) => s.state === "open")).toBe(true);
    expect(registry.size).toBe(0);
    expect(before).toBeLessThanOrEqual(polled);
  });
});
