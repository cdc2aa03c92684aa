import { eventually, startReceiver, type TestReceiver } from "@cairn/core/testing";
import { startWorker, type Worker } from "@cairn/core";
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
    expect(Object.keys(deliveries.json.items[0])).toEqual(["event_id", "attempt", "status_code", "latency_ms", "at"]);
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
