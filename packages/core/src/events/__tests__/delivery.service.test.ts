import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejectionOf, useTestWorld } from "../../__tests__/helpers.js";
import { startWorker, type Worker } from "../../runtime/worker.js";
import { aWeekLater, claimableAt, DRIVERS, eventually, fullReceipt, minimalReceipt, startReceiver, type TestReceiver } from "../../testing/index.js";
import type { RetrySchedule } from "../schedule.js";
import type { DeliveryAttempt } from "../subscription-schemas.js";

/** Short delays instead of hours: the schedule is injected, nothing sleeps for real time. */
const FAST: RetrySchedule = { delays: [30, 30, 30, 30], jitter: 0, disableAfterMs: 5 * 86_400_000, maxRetryAfterMs: 5_000, leaseMs: 5_000 };

/** The independent check: HMAC-SHA256 over `id.timestamp.body` with the base64 key after `whsec_`. */
function hmacSignature(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

describe.each(DRIVERS)("webhook delivery on %s", (driver) => {
  const fx = useTestWorld(driver);
  let receiver: TestReceiver;
  let worker: Worker;
  beforeAll(async () => {
    worker = startWorker({ store: fx.store, config: fx.world.cairn.config, schedule: FAST, pollMs: 20, jobs: [] });
  });
  afterAll(async () => {
    await worker?.stop(1_000);
    await receiver?.close();
  });
  // A receiver per test, so a late retry of an earlier test can never be counted here.
  const fresh = async () => {
    await receiver?.close();
    receiver = await startReceiver();
    const sam = await fx.world.user("sam");
    return sam;
  };

  it("signs with the subscription's secret: standardwebhooks and an independent HMAC both verify", async () => {
    const sam = await fresh();
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: receiver.url });
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt());
    const [got] = await receiver.waitFor(1);
    const headers = got?.headers as Record<string, string>;
    const body = got?.body as string;
    expect(() => new Webhook(sub.secret).verify(body, headers)).not.toThrow();
    expect(headers["webhook-signature"]).toBe(hmacSignature(sub.secret, headers["webhook-id"] as string, headers["webhook-timestamp"] as string, body));
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 1).toString("base64")}`).verify(body, headers)).toThrow();

    const payload = JSON.parse(body);
    expect(Object.keys(payload)).toEqual(["type", "id", "created_at", "data"]);
    expect(payload.type).toBe("artifact.created");
    expect(payload.id).toBe(headers["webhook-id"]);
    expect(payload.data.id).toBe(receipt.id);
    const [stored] = await fx.store.query<{ metadata: unknown }>("select metadata from artifacts where id = $1", [receipt.id]);
    expect(payload.data.metadata).toEqual(stored?.metadata);
    expect(Object.keys(payload.data).at(-1)).toBe("metadata");
    // Routable from the event alone.
    expect(payload.data.metadata.human_action).not.toBe("Nothing");
  });

  it("a plain artifact's event has no metadata key; only matching types reach a filtered subscription", async () => {
    const sam = await fresh();
    const filtered = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: receiver.url, events: ["receipt.dropped"] });
    await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: `${receiver.url}?all`, events: ["artifact.created"] });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Log", body: "hello" });
    const [got] = await receiver.waitFor(1);
    // The filtered subscription was queued nothing: nothing can ever be sent to it.
    expect(await fx.store.query("select 1 from deliveries where subscription_id = $1", [filtered.id])).toEqual([]);
    expect(receiver.received).toHaveLength(1);
    const payload = JSON.parse(got?.body as string);
    expect(Object.keys(payload.data)).toEqual(["id", "title", "url", "share_type", "tags", "owner", "provenance", "created_at", "expires_at"]);
  });

  it("retries a failing receiver with the same webhook-id and lists every attempt", async () => {
    const sam = await fresh();
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: receiver.url });
    receiver.script({ status: 500 }, { status: 502 });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Retry me", body: "x" });
    const got = await receiver.waitFor(3);
    const ids = new Set(got.map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    const list = await eventually(async () => {
      const l = await fx.world.cairn.invoke("subscription_deliveries", sam.ctx(), { id: sub.id });
      return l.items.length === 3 && l;
    });
    expect((list.items as DeliveryAttempt[]).map((a) => [a.attempt, a.event_type, a.status_code, a.error ?? null])).toEqual([
      [3, "artifact.created", 200, null],
      [2, "artifact.created", 502, "HTTP 502"],
      [1, "artifact.created", 500, "HTTP 500"],
    ]);
    expect(list.items.every((a) => a.event_id === [...ids][0])).toBe(true);
    const read = await fx.world.cairn.invoke("subscription_read", sam.ctx(), { id: sub.id });
    expect(read).toMatchObject({ enabled: true, failing_since: null });
  });

  it("honours Retry-After on 429", async () => {
    const sam = await fresh();
    await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: receiver.url });
    receiver.script({ status: 429, headers: { "retry-after": "1" } });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Slow down", body: "x" });
    const [first, second] = await receiver.waitFor(2, 5_000);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("a 410 disables the subscription, doctor fails on it, and enable resumes the waiting event", async () => {
    const sam = await fresh();
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: receiver.url });
    receiver.script({ status: 410 });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Gone", body: "x" });
    await receiver.waitFor(1);
    const read = await eventually(async () => {
      const s = await fx.world.cairn.invoke("subscription_read", sam.ctx(), { id: sub.id });
      return !s.enabled && s;
    });
    expect(read.disabled_reason).toContain("410");
    const doctor = await fx.world.cairn.invoke("doctor", sam.ctx(), {});
    const check = doctor.checks.find((c) => c.name === "Webhooks");
    expect(check).toMatchObject({ status: "fail" });
    expect(check?.summary).toContain(sub.id);
    // Disabled: the event waits, and a claim a week later takes nothing of it.
    expect(await claimableAt(fx.store, sub.id, aWeekLater())).toEqual([]);
    expect(receiver.received).toHaveLength(1);
    await fx.world.cairn.invoke("subscription_enable", sam.ctx(), { id: sub.id });
    const [, again] = await receiver.waitFor(2);
    expect(again?.headers["webhook-id"]).toBe(receiver.received[0]?.headers["webhook-id"]);
    // The resumed event was still failing until its delivery is recorded; then doctor is ok.
    await eventually(async () => {
      const ok = await fx.world.cairn.invoke("doctor", sam.ctx(), {});
      return ok.checks.find((c) => c.name === "Webhooks")?.status === "ok";
    });
  });

  it("doctor warns while a subscription is failing", async () => {
    const sam = await fresh();
    await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: receiver.url });
    receiver.script(...Array.from({ length: 5 }, () => ({ status: 500 })));
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Failing", body: "x" });
    await receiver.waitFor(5);
    const check = await eventually(async () => {
      const d = await fx.world.cairn.invoke("doctor", sam.ctx(), {});
      return d.checks.find((c) => c.name === "Webhooks" && c.status === "warn");
    });
    expect(check.summary).toContain("failing");
  });

  it("redelivers one event with the same id and bytes; recover skips what was delivered", async () => {
    const sam = await fresh();
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: receiver.url });
    const since = new Date().toISOString();
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "One", body: "1" });
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Two", body: "2" });
    const first = await receiver.waitFor(2);
    const id = first[0]?.headers["webhook-id"] as string;
    expect(await fx.world.cairn.invoke("subscription_redeliver", sam.ctx(), { id: sub.id, event_id: id })).toEqual({ queued: 1 });
    const [, , third] = await receiver.waitFor(3);
    expect(third?.headers["webhook-id"]).toBe(id);
    expect(third?.body).toBe(first[0]?.body);
    // Both were received: recover resends only what was not (SPEC §19).
    await eventually(async () => (await fx.store.query("select 1 from deliveries where subscription_id = $1 and state = 'delivered'", [sub.id])).length === 2);
    expect(await fx.world.cairn.invoke("subscription_recover", sam.ctx(), { id: sub.id, since })).toEqual({ queued: 0 });
    expect(await claimableAt(fx.store, sub.id, aWeekLater())).toEqual([]);
    expect(receiver.received).toHaveLength(3);
  });

  it("announces a recoverable drop with paths, never the submitted values", async () => {
    const sam = await fresh();
    await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: receiver.url, events: ["receipt.dropped"] });
    const value = "Quarterly ledger 9c1e reconciliation";
    const refused = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), { ...minimalReceipt({ affected: value }), before: 7 }));
    expect(refused.code).toBe("validation_failed");
    const [got] = await receiver.waitFor(1);
    const payload = JSON.parse(got?.body as string);
    expect(payload.type).toBe("receipt.dropped");
    expect(payload.data).toMatchObject({ category: "invalid", recoverable: true, fields: ["before"] });
    expect(Object.keys(payload.data)).toEqual([
      "id",
      "owner",
      "category",
      "recoverable",
      "cause",
      "next_action",
      "fields",
      "title",
      "title_withheld",
      "surface",
      "actor",
      "model",
      "created_at",
      "state",
    ]);
    expect(got?.body).not.toContain(value);
  });

  it("agents may list but not create or manage; strangers see nothing", async () => {
    const sam = await fresh();
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: receiver.url });
    const agentToken = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: "claude", kind: "agent" });
    const agent = (await fx.world.cairn.authenticate(agentToken.token)) as NonNullable<Awaited<ReturnType<typeof fx.world.cairn.authenticate>>>;
    const actx = fx.world.cairn.context(agent, "mcp");
    expect((await rejectionOf(fx.world.cairn.invoke("subscription_create", actx, { url: receiver.url }))).code).toBe("forbidden");
    expect((await rejectionOf(fx.world.cairn.invoke("subscription_delete", actx, { id: sub.id }))).message).toContain("subscriptions:write");
    const listed = await fx.world.cairn.invoke("subscription_list", actx, {});
    expect(listed.items.map((s) => s.id)).toEqual([sub.id]);
    expect(JSON.stringify(listed)).not.toContain("whsec_");
    const other = await fx.world.user("other");
    expect((await rejectionOf(fx.world.cairn.invoke("subscription_read", other.ctx(), { id: sub.id }))).code).toBe("not_found");
    expect((await fx.world.cairn.invoke("subscription_list", other.ctx(), {})).items).toEqual([]);
  });

  it("team subscriptions are made and seen by members only", async () => {
    const sam = await fresh();
    const dana = await fx.world.user("dana");
    const outsider = await fx.world.user("out");
    const team = await fx.world.team([sam, dana]);
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: receiver.url, owner: team });
    expect((await fx.world.cairn.invoke("subscription_read", dana.ctx(), { id: sub.id })).owner).toBe(team);
    expect((await rejectionOf(fx.world.cairn.invoke("subscription_create", outsider.ctx(), { url: receiver.url, owner: team }))).code).toBe("forbidden");
    await fx.world.cairn.invoke("artifact_create", dana.ctx(), { title: "Team log", body: "x", owner: team });
    const [got] = await receiver.waitFor(1);
    expect(JSON.parse(got?.body as string).data.owner).toBe(team);
  });

  it("refuses targets that are not http(s) or carry credentials", async () => {
    const sam = await fresh();
    for (const url of ["ftp://example.com/x", "https://user:pw@example.com/x", "not a url"]) {
      const err = await rejectionOf(fx.world.cairn.invoke("subscription_create", sam.ctx(), { url }));
      expect(err.issues?.[0]?.field).toBe("url");
    }
    const nul = await rejectionOf(fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: "https://example.com/a\u0000b" }));
    expect(nul.issues?.[0]).toMatchObject({ field: "url", reason: "contains a character that cannot be stored" });
    // The URL is kept as the parser writes it (percent-encoded ASCII).
    const odd = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: "https://example.com/a b/é" });
    expect(odd.url).toBe("https://example.com/a%20b/%C3%A9");
  });
});
