import { afterEach, describe, expect, it } from "vitest";
import { rejectionOf, useTestWorld } from "../../__tests__/helpers.js";
import { startWorker, type Worker } from "../../runtime/worker.js";
import { DRIVERS, eventually, startReceiver } from "../../testing/index.js";
import { claimDue } from "../deliver.js";
import type { RetrySchedule } from "../schedule.js";

const DAY = 86_400_000;
const FAST: RetrySchedule = { delays: Array(20).fill(20), jitter: 0, disableAfterMs: 5 * DAY, maxRetryAfterMs: 1_000, leaseMs: 400 };

describe.each(DRIVERS)("webhook workers on %s", (driver) => {
  const fx = useTestWorld(driver);
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f();
  });
  const receiver = async () => {
    const r = await startReceiver();
    cleanup.push(() => r.close());
    return r;
  };
  const worker = (extra: Partial<Parameters<typeof startWorker>[0]> = {}): Worker => {
    const w = startWorker({ store: fx.store, config: fx.world.cairn.config, schedule: FAST, pollMs: 20, jobs: [], ...extra });
    cleanup.push(() => w.stop(500));
    return w;
  };
  const attempts = (subscriptionId: string) =>
    fx.store.query<{ attempt: number; status_code: number | null; error: string | null }>(
      "select attempt, status_code, error from delivery_attempts where subscription_id = $1 order by attempt",
      [subscriptionId],
    );

  it("with deny-private on, refuses a loopback target at create and at delivery time", async () => {
    const r = await receiver();
    const sam = await fx.world.user("sam");
    const strict = { ...sam.ctx(), config: { ...fx.world.cairn.config, webhookDenyPrivate: true } };
    const err = await rejectionOf(fx.world.cairn.invoke("subscription_create", strict, { url: r.url }));
    expect(err.issues?.[0]).toMatchObject({ field: "url" });
    expect((await rejectionOf(fx.world.cairn.invoke("subscription_create", strict, { url: "http://localhost:1/x" }))).code).toBe("validation_failed");
    // Created while the switch was off (or resolving elsewhere then): refused when it is sent.
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: r.url.replace("127.0.0.1", "localhost") });
    worker({ denyPrivate: true, schedule: { ...FAST, delays: [] } });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Private", body: "x" });
    const [first] = await eventually(async () => {
      const rows = await attempts(sub.id);
      return rows.length > 0 && rows;
    });
    expect(first?.status_code).toBeNull();
    expect(first?.error).toContain("target refused");
    expect(r.received).toHaveLength(0);
  });

  it("disables a subscription whose every attempt failed for 5 days", async () => {
    const r = await receiver();
    r.script(...Array(50).fill({ status: 500 }));
    const sam = await fx.world.user("sam");
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: r.url });
    let offset = 0;
    worker({ now: () => new Date(Date.now() + offset) });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Down", body: "x" });
    await r.waitFor(2);
    expect((await fx.world.cairn.invoke("subscription_read", sam.ctx(), { id: sub.id })).enabled).toBe(true);
    offset = 5 * DAY + 60_000;
    const read = await eventually(async () => {
      const s = await fx.world.cairn.invoke("subscription_read", sam.ctx(), { id: sub.id });
      return !s.enabled && s;
    });
    expect(read.disabled_reason).toContain("5 days");
  });

  it("a claim of a worker that died is taken over after its lease, with the same event id", async () => {
    const r = await receiver();
    const sam = await fx.world.user("sam");
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: r.url });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Orphan", body: "x" });
    // A process claims the delivery and dies before sending.
    const [claimed] = await claimDue(fx.store, new Date(), 10, FAST.leaseMs);
    expect(claimed?.subscription_id).toBe(sub.id);
    const started = Date.now();
    worker();
    const [got] = await r.waitFor(1, 5_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(FAST.leaseMs - 100);
    expect(got?.headers["webhook-id"]).toBe(claimed?.event_id);
  });

  it("stopping releases an in-flight delivery, and another worker delivers it", async () => {
    const r = await receiver();
    r.script("hang");
    const sam = await fx.world.user("sam");
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: r.url });
    const first = startWorker({ store: fx.store, config: fx.world.cairn.config, schedule: { ...FAST, leaseMs: 60_000 }, pollMs: 20, jobs: [] });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "In flight", body: "x" });
    await r.waitFor(1);
    await first.stop(100);
    expect(await attempts(sub.id)).toEqual([]); // released, not counted as a failure
    worker();
    const [hung, delivered] = await r.waitFor(2, 5_000);
    expect(delivered?.headers["webhook-id"]).toBe(hung?.headers["webhook-id"]);
    expect(await eventually(async () => (await attempts(sub.id)).length === 1 && attempts(sub.id))).toEqual([{ attempt: 1, status_code: 200, error: null }]);
  });
});
