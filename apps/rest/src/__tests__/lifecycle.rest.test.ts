import { fullReceipt, minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRestHarness, type RestHarness } from "./harness.js";

describe("REST signing keys, in-toto export, verify and expiry", () => {
  let h: RestHarness;
  let clock = Date.parse("2026-12-01T12:00:00Z");
  beforeAll(async () => {
    h = await openRestHarness("pglite", { now: () => new Date(clock) });
  });
  afterAll(async () => h?.close());

  it("GET /v1/keys is public JWKS; rotating needs an administrator; OpenAPI marks it unauthenticated", async () => {
    const sam = await h.world.user("sam");
    await h.call("GET", "/v1/export?format=in-toto", { token: sam.token }); // makes the first key if none yet
    const keys = await h.call("GET", "/v1/keys");
    expect(keys.status).toBe(200);
    expect(keys.json.keys[0]).toEqual({ kty: "OKP", crv: "Ed25519", x: expect.any(String), kid: expect.any(String), alg: "EdDSA", use: "sig" });
    expect((await h.call("POST", "/v1/keys/rotate", { token: sam.token })).status).toBe(403);
    const rotated = await h.call("POST", "/v1/keys/rotate", { token: h.world.admin.token });
    expect(rotated.status).toBe(200);
    const after = await h.call("GET", "/v1/keys");
    expect(after.json.keys.map((k: { kid: string }) => k.kid)).toEqual([rotated.json.kid, keys.json.keys[0].kid]);
    const doc = (await h.call("GET", "/openapi.json")).json;
    expect(doc.paths["/v1/keys"].get.security).toEqual([]);
  });

  it("GET /v1/export?format=in-toto streams envelopes that POST /v1/verify accepts, and names a tampered check", async () => {
    const sam = await h.world.user("sam");
    await h.call("POST", "/v1/receipts", { token: sam.token, body: fullReceipt({ tags: ["audit"], learned: "rest audit" }) });
    const res = await h.call("GET", "/v1/export?format=in-toto&tag=audit", { token: sam.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    const [line] = res.text.trim().split("\n");
    const ok = await h.call("POST", "/v1/verify", { token: sam.token, body: { line } });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ valid: true, failed: null });
    const envelope = JSON.parse(line ?? "");
    envelope.signatures[0].sig = Buffer.alloc(64, 1).toString("base64");
    const bad = await h.call("POST", "/v1/verify", { token: sam.token, body: { line: JSON.stringify(envelope) } });
    expect(bad.json).toMatchObject({ valid: false, failed: "signature" });
    expect((await h.call("GET", "/v1/export?format=yaml", { token: sam.token })).json.error.issues[0].field).toBe("format");
    expect((await h.call("POST", "/v1/verify", { token: sam.token, body: {} })).status).toBe(422);
  });

  it("an artifact past its expiry is 410 on read, retain and verify", async () => {
    const sam = await h.world.user("sam");
    const made = await h.call("POST", "/v1/receipts", { token: sam.token, body: minimalReceipt({ learned: "short", expires_in: 60 }) });
    clock += 61_000;
    expect((await h.call("GET", `/v1/artifacts/${made.json.id}`, { token: sam.token })).status).toBe(410);
    expect((await h.call("POST", `/v1/artifacts/${made.json.id}/retain`, { token: sam.token })).status).toBe(410);
    expect((await h.call("POST", "/v1/verify", { token: sam.token, body: { id: made.json.id } })).status).toBe(410);
  });
});
