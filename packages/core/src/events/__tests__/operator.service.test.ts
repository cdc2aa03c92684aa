import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { rejectionOf, useTestWorld } from "../../__tests__/helpers.js";
import { startWorker, type Worker } from "../../runtime/worker.js";
import { aWeekLater, claimableAt, DRIVERS, eventually, startReceiver, type TestReceiver } from "../../testing/index.js";
import type { RetrySchedule } from "../schedule.js";
import type { DeliveryAttempt, EventDelivery } from "../subscription-schemas.js";

const DAY = 86_400_000;
/** One retry, far enough away that a test sees whether anything of the old schedule still follows. */
const schedule = (retryMs: number): RetrySchedule => ({ delays: [retryMs], jitter: 0, disableAfterMs: 5 * DAY, maxRetryAfterMs: 1_000, leaseMs: 5_000 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const idOf = (r: { headers: Record<string, unknown> } | undefined) => r?.headers["webhook-id"] as string;

describe.each(DRIVERS)("webhooks an operator can run on %s", (driver) => {
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
  const worker = (extra: Partial<Parameters<typeof startWorker>[0]> = {}): Worker => {
    const w = startWorker({ store: fx.store, config: fx.world.cairn.config, schedule: schedule(60_000), pollMs: 20, jobs: [], ...extra });
    cleanup.push(() => w.stop(200));
    return w;
  };
  const events = async (ctx: ReturnType<Awaited<ReturnType<typeof fx.world.user>>["ctx"]>, id: string) =>
    (await fx.world.cairn.invoke("subscription_deliveries", ctx, { id, view: "events" })).items as EventDelivery[];

  it("redeliver after the receiver is fixed: sent within 5 s, exactly once, and the old retry never follows", async () => {
    const r = await receiver();
    const sam = await fx.world.user("sam");
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: r.url });
    worker({ schedule: schedule(60_000) });
    r.script({ status: 500 });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Broken receiver", body: "x" });
    const [failed] = await r.waitFor(1);
    const waiting = await eventually(async () => {
      const [e] = await events(sam.ctx(), sub.id);
      return e?.state === "pending" && !e.in_flight && e.attempts === 1 && e;
    });
    // In backoff: the next attempt is a minute away, and the subscription says it is failing.
    expect(new Date(waiting.next_attempt_at as string).getTime() - Date.now()).toBeGreaterThan(1_000);
    expect((await fx.world.cairn.invoke("subscription_read", sam.ctx(), { id: sub.id })).failing_since).not.toBeNull();

    const asked = Date.now();
    expect(await fx.world.cairn.invoke("subscription_redeliver", sam.ctx(), { id: sub.id, event_id: idOf(failed) })).toEqual({ queued: 1 });
    const [, again] = await r.waitFor(2, 5_000);
    expect((again?.at ?? Infinity) - asked).toBeLessThan(5_000);
    expect(idOf(again)).toBe(idOf(failed));
    expect(again?.body).toBe(failed?.body);
    const [delivered] = await eventually(async () => {
      const list = await events(sam.ctx(), sub.id);
      return list[0]?.state === "delivered" && list;
    });
    expect(delivered).toMatchObject({ event_id: idOf(failed), event_type: "artifact.created", attempts: 2, next_attempt_at: null, in_flight: false });
    // The old schedule's retry is gone: a claim a week later takes nothing of this subscription.
    expect(await claimableAt(fx.store, sub.id, aWeekLater())).toEqual([]);
    expect(r.received).toHaveLength(2);
    expect((await fx.world.cairn.invoke("subscription_read", sam.ctx(), { id: sub.id })).failing_since).toBeNull();
  }, 30_000);

  it("redeliver during an attempt in flight sends once more after it, never twice at once", async () => {
    const r = await receiver();
    const sam = await fx.world.user("sam");
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: r.url });
    worker({ timeoutMs: 2_000 });
    r.script("hang");
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Slow receiver", body: "x" });
    const [first] = await r.waitFor(1);
    expect((await events(sam.ctx(), sub.id))[0]).toMatchObject({ state: "pending", in_flight: true });
    await fx.world.cairn.invoke("subscription_redeliver", sam.ctx(), { id: sub.id, event_id: idOf(first) });
    const [, second] = await r.waitFor(2, 5_000);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(1_900); // after the hung attempt timed out
    await eventually(async () => (await events(sam.ctx(), sub.id))[0]?.state === "delivered");
    expect(await claimableAt(fx.store, sub.id, aWeekLater())).toEqual([]);
    expect(r.received).toHaveLength(2);
  });

  it("redeliver refuses an event the subscription never takes, naming why", async () => {
    const r = await receiver();
    const sam = await fx.world.user("sam");
    const early = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: r.url, events: ["receipt.dropped"] });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Before", body: "x" });
    const [event] = await fx.store.query<{ id: string }>("select id from events where owner = $1 order by id desc limit 1", [`user:${sam.name}`]);
    const later = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: r.url });
    const before = await rejectionOf(fx.world.cairn.invoke("subscription_redeliver", sam.ctx(), { id: later.id, event_id: event?.id as string }));
    expect(before.issues?.[0]).toMatchObject({ field: "event_id", reason: expect.stringContaining("before this subscription existed") });
    const filtered = await rejectionOf(fx.world.cairn.invoke("subscription_redeliver", sam.ctx(), { id: early.id, event_id: event?.id as string }));
    expect(filtered.issues?.[0]?.reason).toContain("does not take");
  });

  it("recover after a partial outage resends exactly the failed events, nothing delivered and nothing older than the subscription", async () => {
    const r = await receiver();
    const sam = await fx.world.user("sam");
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Before the subscription", body: "0" });
    await sleep(5);
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: r.url });
    worker();
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Delivered", body: "1" });
    const [ok1] = await r.waitFor(1);
    r.script({ status: 503 }, { status: 500 });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Lost A", body: "2" });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Lost B", body: "3" });
    const [, lostA, lostB] = await r.waitFor(3);
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Delivered after", body: "4" });
    const [, , , ok2] = await r.waitFor(4);
    // A success of another event does not hide the ones still failing.
    const read = await eventually(async () => {
      const s = await fx.world.cairn.invoke("subscription_read", sam.ctx(), { id: sub.id });
      return (await events(sam.ctx(), sub.id)).filter((e) => e.state === "delivered").length === 2 && s;
    });
    expect(read.failing_since).not.toBeNull();

    const since = new Date(Date.now() - 3_600_000).toISOString();
    expect(await fx.world.cairn.invoke("subscription_recover", sam.ctx(), { id: sub.id, since })).toEqual({ queued: 2 });
    const resent = (await r.waitFor(6)).slice(4);
    expect(new Set(resent.map(idOf))).toEqual(new Set([idOf(lostA), idOf(lostB)]));
    await eventually(async () => (await events(sam.ctx(), sub.id)).every((e) => e.state === "delivered"));
    expect(await claimableAt(fx.store, sub.id, aWeekLater())).toEqual([]);
    expect(r.received).toHaveLength(6);
    expect(r.received.map((x) => JSON.parse(x.body).data.title)).not.toContain("Before the subscription");
    expect(new Set(r.received.map(idOf)).size).toBe(4);
    expect([idOf(ok1), idOf(ok2)].every((id) => resent.every((x) => idOf(x) !== id))).toBe(true);
    expect((await fx.world.cairn.invoke("subscription_read", sam.ctx(), { id: sub.id })).failing_since).toBeNull();
    // Nothing left to recover: a second call queues nothing.
    expect(await fx.world.cairn.invoke("subscription_recover", sam.ctx(), { id: sub.id, since })).toEqual({ queued: 0 });
  });

  it("recover also queues events written while the subscription was disabled", async () => {
    const r = await receiver();
    const sam = await fx.world.user("sam");
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: r.url });
    worker();
    r.script({ status: 410 });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Gone", body: "1" });
    await eventually(async () => !(await fx.world.cairn.invoke("subscription_read", sam.ctx(), { id: sub.id })).enabled);
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "While disabled", body: "2" });
    await fx.world.cairn.invoke("subscription_enable", sam.ctx(), { id: sub.id });
    await r.waitFor(2); // the waiting "Gone" event resumes
    const since = new Date(Date.now() - 60_000).toISOString();
    expect(await fx.world.cairn.invoke("subscription_recover", sam.ctx(), { id: sub.id, since })).toEqual({ queued: 1 });
    const [, , third] = await r.waitFor(3);
    expect(JSON.parse(third?.body as string).data.title).toBe("While disabled");
  });

  it("the test event arrives signed, whatever the filter, and is listed with its type", async () => {
    const r = await receiver();
    const sam = await fx.world.user("sam");
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: r.url, events: ["receipt.dropped"] });
    const other = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: `${r.url}?other` });
    worker();
    const queued = await fx.world.cairn.invoke("subscription_test", sam.ctx(), { id: sub.id });
    expect(queued).toMatchObject({ queued: 1, event_id: expect.stringMatching(/^evt_/) });
    const [got] = await r.waitFor(1);
    expect(() => new Webhook(sub.secret).verify(got?.body as string, got?.headers as Record<string, string>)).not.toThrow();
    expect(JSON.parse(got?.body as string)).toEqual({
      type: "webhook.test",
      id: queued.event_id,
      created_at: expect.any(String),
      data: { subscription_id: sub.id },
    });
    expect(idOf(got)).toBe(queued.event_id);
    const attempts = await eventually(async () => {
      const l = await fx.world.cairn.invoke("subscription_deliveries", sam.ctx(), { id: sub.id });
      return l.items.length === 1 && (l.items as DeliveryAttempt[]);
    });
    expect(attempts[0]).toMatchObject({ event_id: queued.event_id, event_type: "webhook.test", status_code: 200 });
    // Only to that subscription (no other has a delivery of it), and recover never sends it to another.
    const queuedFor = await fx.store.query<{ subscription_id: string }>("select subscription_id from deliveries where event_id = $1", [queued.event_id]);
    expect(queuedFor.map((d) => d.subscription_id)).toEqual([sub.id]);
    expect(r.received).toHaveLength(1);
    expect(await fx.world.cairn.invoke("subscription_recover", sam.ctx(), { id: other.id, since: new Date(Date.now() - 60_000).toISOString() })).toEqual({
      queued: 0,
    });
  });

  it("after a rotation a receiver with only the old secret and one with only the new both verify, for 24 h", async () => {
    const oldOnly = await receiver();
    const sam = await fx.world.user("sam");
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: oldOnly.url });
    let offset = 0;
    worker({ now: () => new Date(Date.now() + offset) });
    const rotated = await fx.world.cairn.invoke("subscription_rotate_secret", sam.ctx(), { id: sub.id });
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    expect(rotated.secret).not.toBe(sub.secret);
    expect(Date.parse(rotated.previous_secret_expires_at) - Date.now()).toBeGreaterThan(DAY - 60_000);
    expect(JSON.stringify(await fx.world.cairn.invoke("subscription_read", sam.ctx(), { id: sub.id }))).not.toContain("whsec_");

    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "During the overlap", body: "x" });
    const [during] = await oldOnly.waitFor(1);
    const headers = during?.headers as Record<string, string>;
    const body = during?.body as string;
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(() => new Webhook(sub.secret).verify(body, headers)).not.toThrow(); // the receiver not yet switched
    expect(() => new Webhook(rotated.secret).verify(body, headers)).not.toThrow(); // the receiver already switched
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 7).toString("base64")}`).verify(body, headers)).toThrow();

    // After the overlap only the new secret signs. (The receiver checks the timestamp against its own clock, so verify with the worker's.)
    offset = DAY + 60_000;
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "After the overlap", body: "y" });
    const [, after] = await oldOnly.waitFor(2);
    const afterHeaders = after?.headers as Record<string, string>;
    expect(afterHeaders["webhook-signature"]?.split(" ")).toHaveLength(1);
    const signedAt = new Date(Number(afterHeaders["webhook-timestamp"]) * 1000);
    const sign = (secret: string) => new Webhook(secret).sign(afterHeaders["webhook-id"] as string, signedAt, after?.body as string);
    expect(afterHeaders["webhook-signature"]).toBe(sign(rotated.secret));
    expect(afterHeaders["webhook-signature"]).not.toBe(sign(sub.secret));
  });

  it("refuses the 26th subscription of an owner with a 422 naming the limit", async () => {
    const sam = await fx.world.user("sam");
    const made = await Promise.all(
      Array.from({ length: 25 }, (_, i) => fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: `http://127.0.0.1:9/hook-${i}` })),
    );
    expect(made).toHaveLength(25);
    const err = await rejectionOf(fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: "http://127.0.0.1:9/one-more" }));
    expect(err.code).toBe("validation_failed");
    expect(err.issues?.[0]).toMatchObject({ field: "owner", limit: 25, reason: expect.stringContaining("25 subscriptions") });
    // Deleting one makes room again.
    await fx.world.cairn.invoke("subscription_delete", sam.ctx(), { id: made[0]?.id as string });
    await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: "http://127.0.0.1:9/one-more" });
  });

  it("a team subscription stops when its creator leaves the team; a member re-enables it as their own", async () => {
    const r = await receiver();
    const sam = await fx.world.user("sam");
    const dana = await fx.world.user("dana");
    const team = await fx.world.team([sam, dana]);
    worker();
    const sub = await fx.world.cairn.invoke("subscription_create", dana.ctx(), { url: r.url, owner: team });
    expect((await fx.world.cairn.invoke("subscription_read", sam.ctx(), { id: sub.id })).created_by).toBe(dana.name);
    await fx.world.cairn.invoke("team_member_remove", sam.ctx(), { name: team.slice("team:".length), user: dana.name });
    await sam.refresh();
    const read = await fx.world.cairn.invoke("subscription_read", sam.ctx(), { id: sub.id });
    expect(read).toMatchObject({ enabled: false, disabled_reason: "creator_left_team", created_by: dana.name });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "After dana left", body: "x", owner: team });
    // A disabled subscription is queued nothing, and a claim a week later takes nothing of it.
    expect(await fx.store.query("select 1 from deliveries where subscription_id = $1", [sub.id])).toEqual([]);
    expect(await claimableAt(fx.store, sub.id, aWeekLater())).toEqual([]);
    expect(r.received).toHaveLength(0);
    const taken = await fx.world.cairn.invoke("subscription_enable", sam.ctx(), { id: sub.id });
    expect(taken).toMatchObject({ enabled: true, disabled_reason: null, created_by: sam.name });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Sam's now", body: "y", owner: team });
    const [got] = await r.waitFor(1);
    expect(JSON.parse(got?.body as string).data.title).toBe("Sam's now");
  });

  it("with deny-private on, IPv6 forms that carry a loopback IPv4 address are refused at create and at delivery", async () => {
    const sam = await fx.world.user("sam");
    const strict = { ...sam.ctx(), config: { ...fx.world.cairn.config, webhookDenyPrivate: true } };
    const targets = [
      "http://[64:ff9b::7f00:1]:9/hook",
      "http://[::ffff:0:7f00:1]:9/hook",
      "http://[::ffff:7f00:1]:9/hook",
      "http://[2002:7f00:1::1]:9/hook",
      "http://[::127.0.0.1]:9/hook",
    ];
    for (const url of targets) {
      const err = await rejectionOf(fx.world.cairn.invoke("subscription_create", strict, { url }));
      expect(err.issues?.[0], url).toMatchObject({ field: "url", reason: expect.stringContaining("loopback, private or link-local") });
    }
    // Created while the switch was off: refused when sent.
    const subs = await Promise.all(targets.slice(0, 2).map((url) => fx.world.cairn.invoke("subscription_create", sam.ctx(), { url })));
    worker({ denyPrivate: true });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Private", body: "x" });
    for (const sub of subs) {
      const [attempt] = await eventually(async () => {
        const l = await fx.world.cairn.invoke("subscription_deliveries", sam.ctx(), { id: sub.id });
        return l.items.length > 0 && (l.items as DeliveryAttempt[]);
      });
      expect(attempt).toMatchObject({ status_code: null, error: expect.stringContaining("target refused") });
    }
  });
});
