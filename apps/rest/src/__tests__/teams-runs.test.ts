import { ADAPTER_DRIVERS, minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRestHarness, type RestHarness } from "./harness.js";

const span = (id: string, extra: Record<string, unknown> = {}) => ({
  span_id: id,
  name: "write-receipt",
  start_time: "2026-11-01T10:00:00Z",
  end_time: "2026-11-01T10:00:03Z",
  ...extra,
});

describe.each(ADAPTER_DRIVERS)("REST teams and runs on %s", (driver) => {
  let h: RestHarness;
  beforeAll(async () => {
    h = await openRestHarness(driver);
  });
  afterAll(async () => h?.close());

  it("a team from creation to shared receipts: create, invite, accept, read, remove", async () => {
    const sam = await h.world.user("sam");
    const kim = await h.world.user("kim");
    const name = `ops-${sam.name}`;
    const created = await h.call("POST", "/v1/teams", { token: sam.token, body: { name } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name, owner: `team:${name}`, members: [sam.name] });

    const invited = await h.call("POST", `/v1/teams/${name}/members`, { token: sam.token, body: { user: kim.name } });
    expect(invited.status).toBe(200);
    expect(invited.json).toMatchObject({ members: [sam.name], invited: [kim.name] });
    const ghost = await h.call("POST", `/v1/teams/${name}/members`, { token: sam.token, body: { user: `ghost-${kim.name}` } });
    expect(ghost.status).toBe(200);
    expect(ghost.json.invited).toEqual([kim.name, `ghost-${kim.name}`].sort());
    expect((await h.call("POST", "/v1/receipts", { token: kim.token, body: minimalReceipt({ owner: `team:${name}` }) })).status).toBe(403);
    const waiting = await h.call("GET", "/v1/invitations", { token: kim.token });
    expect(waiting.json.items).toEqual([{ team: `team:${name}`, state: "invited", invited_by: sam.name, at: expect.any(String) }]);
    const added = await h.call("POST", `/v1/invitations/${name}/accept`, { token: kim.token });
    expect(added.status).toBe(200);
    expect(added.json.members).toEqual([kim.name, sam.name].sort());

    // Membership counts from the next request on: kim writes for the team, sam reads it.
    const receipt = await h.call("POST", "/v1/receipts", { token: kim.token, body: minimalReceipt({ owner: `team:${name}` }) });
    expect(receipt.status).toBe(201);
    expect((await h.call("GET", `/v1/artifacts/${receipt.json.id}`, { token: sam.token })).status).toBe(200);
    expect((await h.call("GET", `/v1/teams/${name}`, { token: kim.token })).json.members).toHaveLength(2);

    const removed = await h.call("DELETE", `/v1/teams/${name}/members/${kim.name}`, { token: sam.token });
    expect(removed.status).toBe(200);
    expect(removed.json.members).toEqual([sam.name]);
    expect((await h.call("GET", `/v1/artifacts/${receipt.json.id}`, { token: kim.token })).status).toBe(404);
    expect((await h.call("GET", `/v1/teams/${name}`, { token: kim.token })).status).toBe(404);
    const last = await h.call("DELETE", `/v1/teams/${name}/members/${sam.name}`, { token: sam.token });
    expect(last.status).toBe(422);
    expect(last.json.error.issues[0]).toMatchObject({ field: "user", limit: 1 });
  });

  it("team errors: taken name 422, outsider 404 like a missing team, bad names name the field", async () => {
    const sam = await h.world.user("sam");
    const eve = await h.world.user("eve");
    const name = `core-${sam.name}`;
    await h.call("POST", "/v1/teams", { token: sam.token, body: { name } });
    const taken = await h.call("POST", "/v1/teams", { token: eve.token, body: { name } });
    expect(taken.status).toBe(422);
    expect(taken.json.error.issues).toEqual([{ field: "name", reason: "is already taken" }]);
    const outsider = await h.call("POST", `/v1/teams/${name}/members`, { token: eve.token, body: { user: eve.name } });
    const missing = await h.call("POST", "/v1/teams/no-such-team/members", { token: eve.token, body: { user: eve.name } });
    expect(outsider.status).toBe(404);
    expect({ error: { ...outsider.json.error, request_id: undefined } }).toEqual({ error: { ...missing.json.error, request_id: undefined } });
    const bad = await h.call("POST", "/v1/teams", { token: sam.token, body: { name: "Has Spaces" } });
    expect(bad.status).toBe(422);
    expect(bad.json.error.issues[0].field).toBe("name");
    const noUser = await h.call("POST", `/v1/teams/${name}/members`, { token: sam.token, body: {} });
    expect(noUser.status).toBe(422);
    expect(noUser.json.error.issues).toEqual([{ field: "user", reason: "is required" }]);
  });

  it("a run end to end: create, append a span naming the receipt, produced_by, close, read", async () => {
    const sam = await h.world.user("sam");
    const receipt = await h.call("POST", "/v1/receipts", { token: sam.token, body: minimalReceipt({ learned: "from a run" }) });
    const run = await h.call("POST", "/v1/runs", { token: sam.token, body: { name: "nightly-export" } });
    expect(run.status).toBe(201);
    expect(run.json).toMatchObject({ owner: `user:${sam.name}`, status: "open", spans: [] });

    const appended = await h.call("POST", `/v1/runs/${run.json.id}/spans`, {
      token: sam.token,
      body: { spans: [span("root"), span("write", { parent_span_id: "root", produced_artifact_id: receipt.json.id })] },
    });
    expect(appended.status).toBe(200);
    expect(appended.json).toEqual({ run_id: run.json.id, appended: 2, unchanged: 0, span_count: 2 });

    const read = await h.call("GET", `/v1/artifacts/${receipt.json.id}`, { token: sam.token });
    expect(read.json.produced_by).toEqual([{ id: run.json.id, name: "nightly-export" }]);

    const closed = await h.call("POST", `/v1/runs/${run.json.id}/close`, { token: sam.token });
    expect(closed.status).toBe(200);
    expect(closed.json.status).toBe("ended");
    const late = await h.call("POST", `/v1/runs/${run.json.id}/spans`, { token: sam.token, body: { spans: [span("late")] } });
    expect(late.status).toBe(422);
    expect(late.json.error.issues[0].field).toBe("run_id");

    const got = await h.call("GET", `/v1/runs/${run.json.id}`, { token: sam.token });
    expect(got.json.spans.map((s: { span_id: string }) => s.span_id)).toEqual(["root", "write"]);
    expect(got.json.spans[1].produced_artifact_id).toBe(receipt.json.id);
  });

  it("span errors name the span's field: unknown artifact → 422 spans.2.produced_artifact_id", async () => {
    const sam = await h.world.user("sam");
    const run = await h.call("POST", "/v1/runs", { token: sam.token, body: { name: "bad" } });
    const res = await h.call("POST", `/v1/runs/${run.json.id}/spans`, {
      token: sam.token,
      body: { spans: [span("a"), span("b"), span("c", { produced_artifact_id: "art_00000000000000000000000000" })] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error.issues).toEqual([
      { field: "spans.2.produced_artifact_id", reason: expect.stringContaining(`names no artifact owned by user:${sam.name}`) },
    ]);
    const times = await h.call("POST", `/v1/runs/${run.json.id}/spans`, {
      token: sam.token,
      body: { spans: [span("a", { start_time: "2026-11-01 10:00" })] },
    });
    expect(times.json.error.issues[0]).toEqual({
      field: "spans.0.start_time",
      reason: "must be an ISO 8601 date-time with a zone, e.g. 2026-11-01T10:00:00Z",
    });
  });

  it("a body run_id that contradicts the path is refused; malformed bodies are 422, never 5xx", async () => {
    const sam = await h.world.user("sam");
    const run = await h.call("POST", "/v1/runs", { token: sam.token, body: { name: "paths" } });
    const contradicting = await h.call("POST", `/v1/runs/${run.json.id}/spans`, {
      token: sam.token,
      body: { run_id: "run_other", spans: [span("a")] },
    });
    expect(contradicting.status).toBe(422);
    expect(contradicting.json.error.issues[0].field).toBe("run_id");
    for (const rawBody of ["", "[]", "{", "null", '{"spans": {}}']) {
      const res = await h.call("POST", `/v1/runs/${run.json.id}/spans`, { token: sam.token, rawBody });
      expect(res.status, rawBody).toBe(422);
    }
  });

  it("OpenAPI documents the team and run routes with the path parameter and the body apart", async () => {
    const doc = (await h.call("GET", "/openapi.json")).json;
    const append = doc.paths["/v1/runs/{run_id}/spans"].post;
    expect(append.operationId).toBe("run_append_spans");
    expect(append.parameters.map((p: { name: string; in: string }) => [p.name, p.in])).toEqual([
      ["run_id", "path"],
      ["x-cairn-surface", "header"],
    ]);
    const bodySchema = append.requestBody.content["application/json"].schema;
    expect(Object.keys(bodySchema.properties ?? doc.components.schemas[bodySchema.$ref?.split("/").pop()]?.properties)).toEqual(["spans"]);
    expect(doc.paths["/v1/teams/{name}/members/{user}"].delete.operationId).toBe("team_member_remove");
    for (const op of ["run_create", "run_read", "run_close", "team_create", "team_read", "team_member_add"]) {
      expect(JSON.stringify(doc.paths)).toContain(`"operationId":"${op}"`);
    }
  });
});
