import { minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRestHarness, type RestHarness } from "./harness.js";

const ASKS = "Approve the retry budget in the finance channel.";

describe("REST inbox, acknowledge and outcomes", () => {
  let h: RestHarness;
  beforeAll(async () => {
    h = await openRestHarness("pglite");
  });
  afterAll(async () => h?.close());

  it("POST /v1/artifacts/:id/acknowledge: a person's acknowledgement closes the open action; an agent's is 403", async () => {
    const sam = await h.world.user("sam");
    const agent = (await h.call("POST", "/v1/tokens", { token: sam.token, body: { name: "claude", kind: "agent" } })).json;
    const created = await h.call("POST", "/v1/receipts", { token: agent.token, body: minimalReceipt({ human_action: ASKS }) });
    expect(created.status).toBe(201);
    expect(created.json.acknowledgements).toEqual([]);
    const id = created.json.id as string;

    const open = await h.call("GET", "/v1/inbox", { token: agent.token });
    expect(open.status).toBe(200);
    expect(open.json.items.map((i: { id: string; state: string; human_action: string }) => [i.id, i.state, i.human_action])).toEqual([[id, "open", ASKS]]);
    expect(open.json.next_cursor).toBeNull();

    const denied = await h.call("POST", `/v1/artifacts/${id}/acknowledge`, { token: agent.token, body: { note: "seen" } });
    expect(denied.status).toBe(403);
    expect(denied.json.error.code).toBe("forbidden");
    expect(denied.json.error.message).toContain("acknowledgements:write");

    const acked = await h.call("POST", `/v1/artifacts/${id}/acknowledge`, { token: sam.token, body: { note: "Approved" } });
    expect(acked.status).toBe(200);
    expect(acked.json.acknowledgements).toEqual([{ by: { user: sam.name, token_name: "initial" }, at: expect.any(String), note: "Approved" }]);
    expect(acked.json.checksum).toBe(created.json.checksum);
    expect(acked.json.body).toBe(created.json.body);
    // No body at all is an acknowledgement without a note; a second one changes nothing.
    const again = await h.call("POST", `/v1/artifacts/${id}/acknowledge`, { token: sam.token });
    expect(again.status).toBe(200);
    expect(again.json.acknowledgements).toEqual(acked.json.acknowledgements);

    expect((await h.call("GET", "/v1/inbox", { token: sam.token })).json.items).toEqual([]);
    const all = await h.call("GET", "/v1/inbox?state=all", { token: sam.token });
    expect(all.json.items.map((i: { state: string }) => i.state)).toEqual(["acknowledged"]);
    expect((await h.call("GET", `/v1/artifacts/${id}`, { token: sam.token })).json.acknowledgements).toEqual(acked.json.acknowledgements);
  });

  it("refusals name the field: human_action for a receipt asking nothing, note over its limit, state not a state", async () => {
    const sam = await h.world.user("sam");
    const nothing = (await h.call("POST", "/v1/receipts", { token: sam.token, body: minimalReceipt() })).json;
    const refused = await h.call("POST", `/v1/artifacts/${nothing.id}/acknowledge`, { token: sam.token, body: {} });
    expect(refused.status).toBe(422);
    expect(refused.json.error.issues.map((i: { field: string }) => i.field)).toEqual(["human_action"]);
    const asks = (await h.call("POST", "/v1/receipts", { token: sam.token, body: minimalReceipt({ human_action: ASKS }) })).json;
    const long = await h.call("POST", `/v1/artifacts/${asks.id}/acknowledge`, { token: sam.token, body: { note: "n".repeat(1001) } });
    expect(long.status).toBe(422);
    expect(long.json.error.issues).toEqual([{ field: "note", reason: expect.any(String), limit: 1000 }]);
    const state = await h.call("GET", "/v1/inbox?state=closed", { token: sam.token });
    expect(state.status).toBe(422);
    expect(state.json.error.issues[0].field).toBe("state");
    const eve = await h.world.user("eve");
    expect((await h.call("POST", `/v1/artifacts/${asks.id}/acknowledge`, { token: eve.token })).status).toBe(404);
  });

  it("GET /v1/outcomes lists a past-due pending receipt as overdue until one follows it", async () => {
    const sam = await h.world.user("sam");
    const body = minimalReceipt({ outcome: { status: "pending", measure_at: "2020-01-01" }, learned: "due long ago" });
    const past = (await h.call("POST", "/v1/receipts", { token: sam.token, body })).json;
    const overdue = await h.call("GET", "/v1/outcomes", { token: sam.token });
    expect(overdue.json.items.map((o: { id: string; state: string; due_at: string }) => [o.id, o.state, o.due_at])).toEqual([
      [past.id, "overdue", "2020-01-01T00:00:00.000Z"],
    ]);
    expect((await h.call("GET", "/v1/outcomes?state=upcoming", { token: sam.token })).json.items).toEqual([]);
    const follow = minimalReceipt({ outcome: { status: "measured", summary: "done" }, follows: past.id, learned: "measured it" });
    expect((await h.call("POST", "/v1/receipts", { token: sam.token, body: follow })).status).toBe(201);
    expect((await h.call("GET", "/v1/outcomes", { token: sam.token })).json.items).toEqual([]);
    const status = (await h.call("GET", "/v1/status", { token: sam.token })).json;
    expect(status.inbox).toMatchObject({ open: 0, overdue: 0 });
  });

  it("/openapi.json documents the three routes", async () => {
    const doc = (await h.call("GET", "/openapi.json")).json;
    expect(doc.paths["/v1/artifacts/{id}/acknowledge"].post.operationId).toBe("artifact_acknowledge");
    expect(doc.paths["/v1/inbox"].get.operationId).toBe("inbox_list");
    expect(doc.paths["/v1/outcomes"].get.operationId).toBe("outcomes_list");
  });
});
