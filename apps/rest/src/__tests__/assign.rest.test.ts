import { minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRestHarness, type RestHarness } from "./harness.js";

describe("REST assignee (SPEC §20)", () => {
  let h: RestHarness;
  beforeAll(async () => {
    h = await openRestHarness("pglite");
  });
  afterAll(async () => h?.close());

  it("an agent names the assignee at create; POST /v1/artifacts/:id/assign is a person's: 403 for the agent, 422 naming assignee, 200 otherwise", async () => {
    const sam = await h.world.user("sam");
    const eve = await h.world.user("eve");
    const agent = (await h.call("POST", "/v1/tokens", { token: sam.token, body: { name: "claude", kind: "agent" } })).json;
    const created = await h.call("POST", "/v1/receipts", { token: agent.token, body: minimalReceipt({ human_action: "Rotate the key", assignee: sam.name }) });
    expect([created.status, created.json.assignee, created.json.followed_by]).toEqual([201, sam.name, []]);
    const id = created.json.id as string;

    const refused = await h.call("POST", `/v1/artifacts/${id}/assign`, { token: agent.token, body: { assignee: null } });
    expect([refused.status, refused.json.error.code]).toEqual([403, "forbidden"]);
    expect(refused.json.error.message).toContain("artifacts:assign");
    const unknown = await h.call("POST", `/v1/artifacts/${id}/assign`, { token: sam.token, body: { assignee: "nobody-at-all" } });
    expect([unknown.status, unknown.json.error.issues.map((i: { field: string }) => i.field)]).toEqual([422, ["assignee"]]);
    const prefixed = await h.call("POST", `/v1/artifacts/${id}/assign`, { token: sam.token, body: { assignee: `user:${sam.name}` } });
    expect([prefixed.status, prefixed.json.error.issues[0].field]).toEqual([422, "assignee"]);
    const outsider = await h.call("POST", `/v1/artifacts/${id}/assign`, { token: eve.token, body: { assignee: eve.name } });
    expect(outsider.status).toBe(404);

    const cleared = await h.call("POST", `/v1/artifacts/${id}/assign`, { token: sam.token, body: { assignee: null } });
    expect([cleared.status, cleared.json.assignee]).toEqual([200, null]);
    const none = await h.call("GET", "/v1/inbox?assignee=none", { token: sam.token });
    expect(none.json.items.map((i: { id: string }) => i.id)).toEqual([id]);
    expect((await h.call("GET", "/v1/inbox?assignee=me", { token: sam.token })).json.items).toEqual([]);

    const plain = await h.call("POST", "/v1/artifacts", { token: agent.token, body: { title: "Note", body: "x", assignee: eve.name } });
    expect([plain.status, plain.json.error.issues[0].field]).toEqual([422, "assignee"]);
    const doc = (await h.call("GET", "/openapi.json", {})).json;
    expect(doc.paths["/v1/artifacts/{id}/assign"].post.operationId).toBe("artifact_assign");
  });
});
