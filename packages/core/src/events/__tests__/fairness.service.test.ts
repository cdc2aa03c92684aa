import { describe, expect, it } from "vitest";
import { useTestWorld } from "../../__tests__/helpers.js";
import type { Store } from "../../store/port.js";
import { DRIVERS, type TestUser, type TestWorld } from "../../testing/index.js";
import { claimDue } from "../deliver.js";

const BACKLOG = 16;
const LEASE_MS = 20_000;
/** An unroutable target: these tests drive the claims themselves, nothing is sent. */
const NOWHERE = "http://127.0.0.1:9/hook";

/**
 * SPEC §19 fairness as the claim decides it (ADR 0030), with the clock driven by the test
 * and the claims' answers and stored rows asserted: a subscription whose receiver hangs
 * holds at most two deliveries in flight, so another owner's event is taken by the next
 * claim however long the backlog. How soon that is with the real worker, timeout and
 * HTTP is the `fairness` row of `pnpm bench` (≤ 3 s), not a unit test.
 */
describe.each(DRIVERS)("fair claims on %s", (driver) => {
  const subscribe = (w: TestWorld, u: TestUser) => w.cairn.invoke("subscription_create", u.ctx(), { url: NOWHERE });
  const backlog = async (w: TestWorld, u: TestUser, n: number) => {
    for (let i = 0; i < n; i++) await w.cairn.invoke("artifact_create", u.ctx(), { title: `Backlog ${i}`, body: "x" });
  };
  const claimedBy = async (store: Store, at: Date, slots: number) => (await claimDue(store, at, slots, LEASE_MS)).map((c) => c.subscription_id);
  const pending = async (store: Store, subscriptionId: string) =>
    (
      await store.query<{ n: number; leased: number }>(
        "select count(*)::int as n, count(*) filter (where leased_until is not null)::int as leased from deliveries where subscription_id = $1 and state = 'pending'",
        [subscriptionId],
      )
    )[0];

  describe("one hanging subscription", () => {
    const fx = useTestWorld(driver);

    it(`with a backlog of ${BACKLOG} holds two of a worker's 8 slots, and another owner's event is taken by the next claim`, async () => {
      const sam = await fx.world.user("sam");
      const dana = await fx.world.user("dana");
      const stuck = await subscribe(fx.world, sam);
      const healthy = await subscribe(fx.world, dana);
      await backlog(fx.world, sam, BACKLOG);
      const t0 = new Date(Date.now() + 1_000);
      // The worker's 8 slots: the hanging subscription gets its two, no more, however long its backlog.
      expect(await claimedBy(fx.store, t0, 8)).toEqual([stuck.id, stuck.id]);
      // Its receiver hangs: within the lease nothing more of it is taken.
      expect(await claimedBy(fx.store, new Date(t0.getTime() + 1), 6)).toEqual([]);

      await fx.world.cairn.invoke("artifact_create", dana.ctx(), { title: "Someone else's", body: "y" });
      expect(await claimedBy(fx.store, new Date(t0.getTime() + 2_000), 6)).toEqual([healthy.id]);
      // The hanging subscription's own backlog is still waiting its turn: nothing was lost, two are in flight.
      expect(await pending(fx.store, stuck.id)).toEqual({ n: BACKLOG, leased: 2 });
      // When the lease of the two in flight runs out they are taken again (a worker died), still two at a time.
      expect(await claimedBy(fx.store, new Date(t0.getTime() + LEASE_MS + 1), 8)).toEqual([stuck.id, stuck.id]);
    });
  });

  describe("two hanging subscriptions", () => {
    const fx = useTestWorld(driver);

    it("already at their cap take no claim from the others: a worker with 2 slots left gives them to another owner", async () => {
      const owners = [await fx.world.user("sam"), await fx.world.user("kim")];
      const stuck = [];
      for (const owner of owners) {
        stuck.push((await subscribe(fx.world, owner)).id);
        await backlog(fx.world, owner, BACKLOG / 2);
      }
      const dana = await fx.world.user("dana");
      const healthy = await subscribe(fx.world, dana);
      const t0 = new Date(Date.now() + 1_000);
      // 6 slots: 2 for each hanging subscription …
      expect((await claimedBy(fx.store, t0, 6)).sort()).toEqual([...stuck, ...stuck].sort());
      // … and the 2 left over take nothing of theirs.
      expect(await claimedBy(fx.store, new Date(t0.getTime() + 1), 2)).toEqual([]);
      await fx.world.cairn.invoke("artifact_create", dana.ctx(), { title: "Someone else's", body: "y" });
      expect(await claimedBy(fx.store, new Date(t0.getTime() + 2_000), 2)).toEqual([healthy.id]);
    });
  });
});
