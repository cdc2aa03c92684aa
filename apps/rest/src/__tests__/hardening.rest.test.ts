import { createLogger, type ReceiptGate, type Store } from "@cairn/core";
import { createTestWorld, DRIVERS, minimalReceipt, openTestStore, type TestWorld } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loggablePath } from "../adapter.js";
import { createRestApp } from "../app.js";

const MARKER = "ZQX-LOGMARK-5c1e";

// A gate that makes a real database error: the driver's error carries the SQL and its
// parameters (the marker, the bearer token), and its message quotes the value. Gates get
// no store (GateContext), so this one reaches the test's own.
let gateStore: Store | undefined;
const failing: ReceiptGate = {
  name: "explodes",
  async check(receipt) {
    if (!receipt.tags.includes("explode")) return null;
    await gateStore?.query("select $1::int", [`${MARKER} ${receipt.metadata.learned}`]);
    return null;
  },
};

describe.each(DRIVERS)("REST hardening on %s", (driver) => {
  let store: Store;
  let world: TestWorld;
  let app: ReturnType<typeof createRestApp>;
  const lines: string[] = [];

  beforeAll(async () => {
    store = await openTestStore(driver);
    gateStore = store;
    world = await createTestWorld(store, { gates: [failing], logger: createLogger({ write: (l) => void lines.push(l) }) });
    app = createRestApp(world.cairn, { accessLog: true });
  });
  afterAll(async () => store?.close());

  const call = async (method: string, path: string, token: string, body?: string, type?: string) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (type) headers["content-type"] = type;
    const res = await app.request(path, { method, headers, ...(body !== undefined && { body }) });
    const text = await res.text();
    return { status: res.status, json: JSON.parse(text) as any, headers: res.headers };
  };
  const json = (method: string, path: string, token: string, body?: unknown) =>
    call(method, path, token, body === undefined ? undefined : JSON.stringify(body), body === undefined ? undefined : "application/json");

  describe("logs", () => {
    it("an internal error logs its code, request id and our stack; never the SQL, its parameters, a share token or the bearer", async () => {
      const sam = await world.user("sam");
      const stored = await json("POST", "/v1/receipts", sam.token, minimalReceipt({ learned: `${MARKER} kept` }));
      expect(stored.status).toBe(201);
      const shareToken = (stored.json.url as string).split("/s/")[1] as string;
      const boom = await json("POST", "/v1/receipts", sam.token, minimalReceipt({ learned: sam.token, tags: ["explode"] }));
      expect(boom.status).toBe(500);
      expect(boom.json.error).toEqual({
        code: "internal",
        message: "Something went wrong on the server. The error was logged.",
        request_id: boom.headers.get("x-request-id"),
      });

      const log = lines.join("\n");
      const requestId = boom.headers.get("x-request-id") as string;
      expect(log).toMatch(new RegExp(`cairn error internal requestId=${requestId} surface=rest method=POST error=\\w+`));
      expect(log).toMatch(/\n {4}at .*src\/receipt\//); // a frame of our code
      expect(log).toContain("cairn info request method=POST path=/v1/receipts status=201");
      for (const secret of [MARKER, sam.token, shareToken, "select", "::int"]) expect(log).not.toContain(secret);
    });

    it("writes share links as /s/… in the access log", () => {
      expect(loggablePath("/s/AbC123_-x")).toBe("/s/…");
      expect(loggablePath("/s/AbC123/raw")).toBe("/s/…/raw");
      expect(loggablePath("/v1/artifacts/art_1")).toBe("/v1/artifacts/art_1");
      // An email confirmation code is a bearer secret too, like a sign-in link's (SPEC §37).
      expect(loggablePath("/notifications/confirm/Zm9vYmFyYmF6cXV4")).toBe("/notifications/confirm/…");
      expect(loggablePath("/signin/link/Zm9vYmFy")).toBe("/signin/link/…");
    });
  });

  describe("415 for bodies that are not JSON", () => {
    it.each([
      ["text/plain", "plain"],
      ["application/x-www-form-urlencoded", "form"],
      ["multipart/form-data; boundary=x", "multipart"],
    ])("a receipt sent as %s is refused 415 with a listed drop", async (type) => {
      const sam = await world.user("sam");
      const res = await call("POST", "/v1/receipts", sam.token, JSON.stringify(minimalReceipt()), type);
      expect(res.status).toBe(415);
      expect(res.json.error).toMatchObject({
        code: "unsupported_media_type",
        issues: [{ field: "(input)", reason: "must be sent as application/json" }],
        drop: { category: "invalid", fields: ["(input)"], surface: "rest" },
      });
      const drops = await json("GET", "/v1/drops", sam.token);
      expect(drops.json.items.map((d: any) => d.id)).toEqual([res.json.error.drop.id]);
    });

    it("refuses a body without a Content-Type, and other JSON routes likewise (no drop there)", async () => {
      const sam = await world.user("sam");
      const untyped = await call("POST", "/v1/receipts", sam.token, JSON.stringify(minimalReceipt()));
      expect(untyped.status).toBe(415);
      const artifact = await call("POST", "/v1/artifacts", sam.token, '{"title":"t","type":"text","body":"b"}', "text/plain");
      expect([artifact.status, artifact.json.error.code, artifact.json.error.drop]).toEqual([415, "unsupported_media_type", undefined]);
      const policy = await call("PUT", "/v1/policy", sam.token, "secrets=block", "application/x-www-form-urlencoded");
      expect(policy.status).toBe(415);
    });

    it("accepts application/json with parameters and +json types; bodiless routes need no type", async () => {
      const sam = await world.user("sam");
      const withCharset = await call("POST", "/v1/receipts", sam.token, JSON.stringify(minimalReceipt({ learned: "one" })), "application/json; charset=utf-8");
      expect(withCharset.status).toBe(201);
      const suffixed = await call("POST", "/v1/receipts", sam.token, JSON.stringify(minimalReceipt({ learned: "two" })), "application/vnd.cairn+json");
      expect(suffixed.status).toBe(201);
      const retain = await call("POST", `/v1/artifacts/${withCharset.json.id}/retain`, sam.token);
      expect(retain.status).toBe(200);
    });
  });

  describe("tokens", () => {
    it("GET /v1/tokens lists without values; DELETE revokes and the next request is 401", async () => {
      const sam = await world.user("sam");
      const minted = await json("POST", "/v1/tokens", sam.token, { name: "claude", kind: "agent" });
      const listed = await json("GET", "/v1/tokens", sam.token);
      expect(listed.status).toBe(200);
      expect(listed.json.items.map((t: any) => t.name)).toEqual(["claude", "initial"]);
      expect(JSON.stringify(listed.json)).not.toContain(minted.json.token);
      expect((await json("GET", "/v1/me", minted.json.token)).status).toBe(200);
      const revoked = await json("DELETE", `/v1/tokens/${minted.json.id}`, sam.token);
      expect(revoked.status).toBe(200);
      expect(revoked.json.revoked_at).toEqual(expect.any(String));
      const after = await json("GET", "/v1/me", minted.json.token);
      expect([after.status, after.json.error.code]).toEqual([401, "unauthenticated"]);
    });

    it("someone else's token is 404 for a user; an administrator lists (?user=) and revokes it", async () => {
      const sam = await world.user("sam");
      const dana = await world.user("dana");
      const danaTokens = await json("GET", `/v1/tokens?user=${dana.name}`, world.admin.token);
      const id = danaTokens.json.items[0].id as string;
      expect((await json("GET", `/v1/tokens?user=${dana.name}`, sam.token)).status).toBe(403);
      expect((await json("DELETE", `/v1/tokens/${id}`, sam.token)).status).toBe(404);
      expect((await json("DELETE", `/v1/tokens/${id}`, world.admin.token)).status).toBe(200);
      expect((await json("GET", "/v1/me", dana.token)).status).toBe(401);
    });
  });
});
