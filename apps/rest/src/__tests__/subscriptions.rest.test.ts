import { startWorker, type Worker } from "@cairn/core";
import { eventually, startReceiver, type TestReceiver } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRestHarness, type RestHarness } from "./harness.js";

// Adapter tests run on one store; the storage rules are tested on both in core.
describe("REST subscriptions (§13 shapes)", () => {
  let h: RestHarness;
  let receiver: TestReceiver;
  let worker: Worker;
  beforeAll(async () => {
    h = await openRestHarness("pglite");
    receiver = await startReceiver();
    worker = startWorker({ store: h.store, config: h.world.cairn.config, pollMs: 20, jobs: [] });
  });
  afterAll(async () => {
    await worker?.stop(500);
    await receiver?.close();
    await h?.close();
  });

  it("create shows the secret once; list and read never do; deliveries list the attempts; delete removes it", async () => {
    const sam = await h.world.user("sam");
    const created = await h.call("POST", "/v1/subscriptions", { token: sam.token, body: { url: receiver.url, events: ["artifact.created"] } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.json)).toEqual(["id", "url", "events", "secret"]);
    expect(created.json.secret).toMatch(/^whsec_/);
    const id = created.json.id as string;

    const list = await h.call("GET", "/v1/subscriptions", { token: sam.token });
    expect(list.status).toBe(200);
    expect(list.json.next_cursor).toBeNull();
    expect(list.json.items.map((s: { id: string }) => s.id)).toEqual([id]);
    expect(list.text).not.toContain("whsec_");
    const read = await h.call("GET", `/v1/subscriptions/${id}`, { token: sam.token });
    expect(read.json).toMatchObject({ id, url: receiver.url, events: ["artifact.created"], enabled: true, disabled_reason: null });
    expect(read.json.created_at).toMatch(/Z$/);
    expect(read.text).not.toContain("whsec_");

    await h.call("POST", "/v1/artifacts", { token: sam.token, body: { title: "Hello", body: "x" } });
    await receiver.waitFor(1);
    const deliveries = await eventually(async () => {
      const d = await h.call("GET", `/v1/subscriptions/${id}/deliveries?limit=10`, { token: sam.token });
      return d.json.items?.length === 1 && d;
    });
    expect(Object.keys(deliveries.json.items[0])).toEqual(["event_id", "event_type", "attempt", "status_code", "latency_ms", "at"]);
    const eventId = deliveries.json.items[0].event_id as string;
    expect(receiver.received[0]?.headers["webhook-id"]).toBe(eventId);

    const again = await h.call("POST", `/v1/subscriptions/${id}/redeliver`, { token: sam.token, body: { event_id: eventId } });
    expect(again).toMatchObject({ status: 200, json: { queued: 1 } });
    await receiver.waitFor(2);
    const recover = await h.call("POST", `/v1/subscriptions/${id}/recover`, { token: sam.token, body: { since: "yesterday" } });
    expect(recover.status).toBe(422);
    expect(recover.json.error.issues[0].field).toBe("since");

    const enabled = await h.call("POST", `/v1/subscriptions/${id}/enable`, { token: sam.token });
    expect(enabled.json.enabled).toBe(true);
    expect((await h.call("DELETE", `/v1/subscriptions/${id}`, { token: sam.token })).status).toBe(200);
    expect((await h.call("GET", `/v1/subscriptions/${id}`, { token: sam.token })).status).toBe(404);
  });

  it("agent tokens get 403 for creating and managing, and may list", async () => {
    const sam = await h.world.user("sam");
    const minted = await h.call("POST", "/v1/tokens", { token: sam.token, body: { name: "claude", kind: "agent" } });
    const agent = minted.json.token as string;
    const refused = await h.call("POST", "/v1/subscriptions", { token: agent, body: { url: receiver.url } });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("forbidden");
    expect(refused.json.error.message).toContain("subscriptions:write");
    expect((await h.call("GET", "/v1/subscriptions", { token: agent })).status).toBe(200);
    const sub = await h.call("POST", "/v1/subscriptions", { token: sam.token, body: { url: receiver.url } });
    for (const verb of ["test", "rotate-secret"]) {
      const denied = await h.call("POST", `/v1/subscriptions/${sub.json.id}/${verb}`, { token: agent });
      expect(denied.status, verb).toBe(403);
      expect(denied.json.error.message).toContain("subscriptions:write");
    }
    expect((await h.call("GET", `/v1/subscriptions/${sub.json.id}/deliveries?view=events`, { token: agent })).status).toBe(200);
  });

  it("test, rotate-secret and the events view of the delivery log (§19 shapes)", async () => {
    const sam = await h.world.user("sam");
    const created = await h.call("POST", "/v1/subscriptions", { token: sam.token, body: { url: receiver.url, events: ["receipt.dropped"] } });
    const id = created.json.id as string;
    const before = receiver.received.length;
    const test = await h.call("POST", `/v1/subscriptions/${id}/test`, { token: sam.token });
    expect(test).toMatchObject({ status: 200, json: { queued: 1, event_id: expect.stringMatching(/^evt_/) } });
    await receiver.waitFor(before + 1);
    const states = await eventually(async () => {
      const d = await h.call("GET", `/v1/subscriptions/${id}/deliveries?view=events`, { token: sam.token });
      return d.json.items?.[0]?.state === "delivered" && d;
    });
    expect(states.json.items).toEqual([
      { event_id: test.json.event_id, event_type: "webhook.test", state: "delivered", attempts: 1, in_flight: false, next_attempt_at: null },
    ]);
    expect(states.json.next_cursor).toBeNull();
    const bad = await h.call("GET", `/v1/subscriptions/${id}/deliveries?view=everything`, { token: sam.token });
    expect(bad.status).toBe(422);
    expect(bad.json.error.issues[0].field).toBe("view");

    const rotated = await h.call("POST", `/v1/subscriptions/${id}/rotate-secret`, { token: sam.token });
    expect(rotated.status).toBe(200);
    expect(Object.keys(rotated.json)).toEqual(["id", "secret", "previous_secret_expires_at", "signing"]);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(created.json.secret);
    const read = await h.call("GET", `/v1/subscriptions/${id}`, { token: sam.token });
    expect(read.json.created_by).toBe(sam.name);
    expect(read.text).not.toContain("whsec_");
  });

  it("bad input is a 422 naming the field", async () => {
    const sam = await h.world.user("sam");
    const bad = await h.call("POST", "/v1/subscriptions", { token: sam.token, body: { url: "ftp://x.example/", events: ["nope"] } });
    expect(bad.status).toBe(422);
    expect(bad.json.error.issues.map((i: { field: string }) => i.field)).toContain("events.0");
    const id = await h.call("GET", "/v1/subscriptions/sub_nope", { token: sam.token });
    expect(id.status).toBe(422);
  });
});
