import { afterEach, describe, expect, it } from "vitest";
import { useTestWorld } from "../../__tests__/helpers.js";
import { DRIVERS, startReceiver, type TestReceiver } from "../../testing/index.js";
import { startWorker, type Worker } from "../worker.js";

const BACKLOG = 16;

/**
 * SPEC §19 fairness, with the real delivery timeout (15 s), lease and worker size: one
 * owner's receiver hangs with a backlog, and another owner's event must still go out
 * within a few seconds of its commit.
 */
describe.each(DRIVERS)("fair delivery on %s", (driver) => {
  const fx = useTestWorld(driver);
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f();
  });
  const receiver = async (): Promise<TestReceiver> => {
    const r = await startReceiver();
    cleanup.push(() => r.close());
    return r;
  };

  it(`a receiver that hangs with a backlog of ${BACKLOG} events delays another owner's event by at most a few seconds`, async () => {
    const hanging = await receiver();
    hanging.script(...Array(4 * BACKLOG).fill("hang"));
    const healthy = await receiver();
    const sam = await fx.world.user("sam");
    const dana = await fx.world.user("dana");
    const stuck = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: hanging.url });
    await fx.world.cairn.invoke("subscription_create", dana.ctx(), { url: healthy.url });
    const worker: Worker = startWorker({ store: fx.store, config: fx.world.cairn.config, jobs: [] });
    cleanup.push(() => worker.stop(200));
    for (let i = 0; i < BACKLOG; i++) await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: `Backlog ${i}`, body: "x" });
    await hanging.waitFor(1);
    // Every delivery of the hanging subscription that may go out at once is in flight now.
    await new Promise((r) => setTimeout(r, 300));
    const inFlight = hanging.received.length;

    const committed = Date.now();
    await fx.world.cairn.invoke("artifact_create", dana.ctx(), { title: "Someone else's", body: "y" });
    const [got] = await healthy.waitFor(1, 90_000);
    const delayMs = (got?.at ?? Number.POSITIVE_INFINITY) - committed;
    console.log(`fairness on ${driver}: another owner's event after ${delayMs} ms (hanging receiver had ${inFlight} in flight, backlog ${BACKLOG})`);
    expect(delayMs).toBeLessThan(3_000);
    expect(inFlight).toBeLessThanOrEqual(2);
    // The hanging subscription's own backlog is still waiting its turn, nothing was lost.
    const [left] = await fx.store.query<{ n: number }>(
      "select count(*)::int as n from deliveries where subscription_id = $1 and state = 'pending'",
      [stuck.id],
    );
    expect(left?.n).toBe(BACKLOG);
  }, 120_000);

  it("subscriptions already at their cap take no claim from the others: two hanging receivers, a worker with 2 slots left", async () => {
    const owners = [await fx.world.user("sam"), await fx.world.user("kim")];
    for (const owner of owners) {
      const hanging = await receiver();
      hanging.script(...Array(4 * BACKLOG).fill("hang"));
      await fx.world.cairn.invoke("subscription_create", owner.ctx(), { url: hanging.url });
    }
    const healthy = await receiver();
    const dana = await fx.world.user("dana");
    await fx.world.cairn.invoke("subscription_create", dana.ctx(), { url: healthy.url });
    // 6 slots: 2 for each hanging subscription, 2 left over for everyone else.
    const worker: Worker = startWorker({ store: fx.store, config: fx.world.cairn.config, jobs: [], concurrency: 6 });
    cleanup.push(() => worker.stop(200));
    for (const owner of owners) {
      for (let i = 0; i < BACKLOG / 2; i++) await fx.world.cairn.invoke("artifact_create", owner.ctx(), { title: `Backlog ${i}`, body: "x" });
    }
    await new Promise((r) => setTimeout(r, 500));

    const committed = Date.now();
    await fx.world.cairn.invoke("artifact_create", dana.ctx(), { title: "Someone else's", body: "y" });
    const [got] = await healthy.waitFor(1, 10_000);
    expect((got?.at ?? Number.POSITIVE_INFINITY) - committed).toBeLessThan(3_000);
  }, 60_000);
});
