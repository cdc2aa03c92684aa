import { ADAPTER_DRIVERS, minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRestHarness, type RestHarness } from "./harness.js";

describe.each(ADAPTER_DRIVERS)("REST security on %s", (driver) => {
  let h: RestHarness;
  beforeAll(async () => {
    h = await openRestHarness(driver);
  });
  afterAll(async () => h?.close());

  it.each([
    ["POST", "/v1/receipts"],
    ["POST", "/v1/artifacts"],
    ["GET", "/v1/artifacts"],
    ["GET", "/v1/artifacts/art_00000000000000000000000000"],
    ["GET", "/v1/export"],
    ["POST", "/v1/artifacts/art_00000000000000000000000000/retain"],
    ["GET", "/v1/me"],
    ["POST", "/v1/users"],
    ["POST", "/v1/tokens"],
    ["POST", "/v1/teams"],
    ["GET", "/v1/teams/ops"],
    ["POST", "/v1/teams/ops/members"],
    ["DELETE", "/v1/teams/ops/members/sam"],
    ["POST", "/v1/runs"],
    ["GET", "/v1/runs/run_00000000000000000000000000"],
    ["POST", "/v1/runs/run_00000000000000000000000000/spans"],
    ["POST", "/v1/runs/run_00000000000000000000000000/close"],
    ["GET", "/v1/drops"],
    ["GET", "/v1/doctor"],
    ["GET", "/v1/status"],
    ["GET", "/v1/policy"],
    ["PUT", "/v1/policy"],
  ])("%s %s without a token → 401 envelope", async (method, path) => {
    const res = await h.call(method, path, method === "GET" || method === "DELETE" ? {} : { body: minimalReceipt() });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("unauthenticated");
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("a wrong token → 401", async () => {
    const res = await h.call("GET", "/v1/me", { token: "cairn_wrong" });
    expect(res.status).toBe(401);
  });

  it("user B cannot read A's artifact by id: 404 like a missing id", async () => {
    const a = await h.world.user("a");
    const b = await h.world.user("b");
    const created = await h.call("POST", "/v1/receipts", { token: a.token, body: minimalReceipt() });
    const res = await h.call("GET", `/v1/artifacts/${created.json.id}`, { token: b.token });
    const missing = await h.call("GET", "/v1/artifacts/art_00000000000000000000000000", { token: b.token });
    expect(res.status).toBe(404);
    // The same answer but for the request's own id.
    const withoutId = (body: { error: { request_id?: string } }) => ({ error: { ...body.error, request_id: undefined } });
    expect(withoutId(res.json)).toEqual(withoutId(missing.json));
  });

  it("a non-admin cannot create users → 403 envelope", async () => {
    const a = await h.world.user("a");
    const res = await h.call("POST", "/v1/users", { token: a.token, body: { name: "eve" } });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("forbidden");
  });

  it("unknown routes → 404 envelope", async () => {
    const res = await h.call("GET", "/v2/nothing");
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
  });

  it("an internal failure is a bare 500 with no details", async () => {
    const a = await h.world.user("a");
    const original = h.store.query;
    const spy = console.error;
    console.error = () => {};
    (h.store as { query: unknown }).query = async () => {
      throw new Error("SECRET-INTERNAL-DETAIL");
    };
    try {
      const res = await h.call("GET", "/v1/artifacts", { token: a.token });
      expect(res.status).toBe(500);
      expect(res.json).toEqual({ error: { code: "internal", message: expect.any(String), request_id: expect.any(String) } });
      expect(res.text).not.toContain("SECRET-INTERNAL-DETAIL");
    } finally {
      (h.store as { query: unknown }).query = original;
      console.error = spy;
    }
  });

  it("an agent token leaves receipts but gets 403 naming the permission for policy, teams and tokens", async () => {
    const minted = await h.call("POST", "/v1/tokens", { token: h.world.admin.token, body: { name: "claude", kind: "agent" } });
    const agent = minted.json.token as string;
    expect((await h.call("POST", "/v1/receipts", { token: agent, body: minimalReceipt() })).status).toBe(201);
    for (const [method, path, body, permission] of [
      ["PUT", "/v1/policy", { require_evidence: true }, "policy:write"],
      ["POST", "/v1/teams", { name: "agents-own" }, "teams:write"],
      ["POST", "/v1/tokens", { name: "more", kind: "agent" }, "tokens:write"],
    ] as const) {
      const res = await h.call(method, path, { token: agent, body });
      expect(res.status, path).toBe(403);
      expect(res.json.error.code).toBe("forbidden");
      expect(res.json.error.message).toContain(permission);
    }
  });
});
