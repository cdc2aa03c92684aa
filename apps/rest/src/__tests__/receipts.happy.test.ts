import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ADAPTER_DRIVERS, fullReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRestHarness, type RestHarness } from "./harness.js";

const example = JSON.parse(readFileSync(join(import.meta.dirname, "../../../../examples/receipt.json"), "utf8"));

describe.each(ADAPTER_DRIVERS)("REST receipts (happy) on %s", (driver) => {
  let h: RestHarness;
  beforeAll(async () => {
    h = await openRestHarness(driver);
  });
  afterAll(async () => h?.close());

  it("POST /v1/receipts with examples/receipt.json → 201, checksum of the body, tag receipt, Nothing", async () => {
    const sam = await h.world.user("sam");
    const res = await h.call("POST", "/v1/receipts", { token: sam.token, body: example });
    expect(res.status).toBe(201);
    const sha = createHash("sha256").update(res.json.body, "utf8").digest("hex");
    expect(res.json.checksum).toBe(`sha256:${sha}`);
    expect(res.json.tags).toContain("receipt");
    expect(res.json.metadata.human_action).toBe("Nothing");
    expect(res.json.provenance.surface).toBe("rest");
    expect(res.json.redactions).toEqual([]);
  });

  it("GET /v1/artifacts/:id returns what was created", async () => {
    const sam = await h.world.user("sam");
    const created = await h.call("POST", "/v1/receipts", { token: sam.token, body: fullReceipt() });
    const read = await h.call("GET", `/v1/artifacts/${created.json.id}`, { token: sam.token });
    expect(read.status).toBe(200);
    const { redactions: _r, warnings: _w, ...rest } = created.json;
    expect(read.json).toEqual(rest);
  });

  it("GET /v1/artifacts?tag= pages with next_cursor", async () => {
    const sam = await h.world.user("sam");
    for (let i = 0; i < 3; i++) {
      await h.call("POST", "/v1/receipts", { token: sam.token, body: fullReceipt({ learned: `n${i}` }) });
    }
    const p1 = await h.call("GET", "/v1/artifacts?tag=receipt&limit=2", { token: sam.token });
    expect(p1.status).toBe(200);
    expect(p1.json.items).toHaveLength(2);
    const p2 = await h.call("GET", `/v1/artifacts?tag=receipt&limit=2&cursor=${p1.json.next_cursor}`, { token: sam.token });
    expect(p2.json.items).toHaveLength(1);
    expect(p2.json.next_cursor).toBeNull();
  });

  it("POST /v1/artifacts creates a plain artifact", async () => {
    const sam = await h.world.user("sam");
    const res = await h.call("POST", "/v1/artifacts", { token: sam.token, body: { title: "Build log", body: "ok", share_type: "text" } });
    expect(res.status).toBe(201);
    expect(res.json.metadata).toBeNull();
  });

  it("admin creates a user and an agent token; GET /v1/me shows the actor", async () => {
    const made = await h.call("POST", "/v1/users", { token: h.world.admin.token, body: { name: "dana" } });
    expect(made.status).toBe(201);
    expect(made.json.user.name).toBe("dana");
    const agent = await h.call("POST", "/v1/tokens", { token: made.json.token.token, body: { name: "claude", kind: "agent" } });
    expect(agent.status).toBe(201);
    const me = await h.call("GET", "/v1/me", { token: agent.json.token });
    expect(me.json).toMatchObject({ user: { name: "dana", is_admin: false }, token: { name: "claude", kind: "agent" } });
  });

  it("serves /healthz", async () => {
    const res = await h.call("GET", "/healthz");
    expect(res.json).toEqual({ status: "ok", database: "ok" });
  });
});
