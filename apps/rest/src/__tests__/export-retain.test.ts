import { EXPORT_PAGE_SIZE } from "@cairn/core";
import { ADAPTER_DRIVERS, minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRestHarness, type RestHarness } from "./harness.js";

const lines = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l));

describe.each(ADAPTER_DRIVERS)("REST export, retain and surface on %s", (driver) => {
  let h: RestHarness;
  beforeAll(async () => {
    h = await openRestHarness(driver);
  });
  afterAll(async () => h?.close());

  it("GET /v1/export?tag= streams every page as NDJSON, newest first, each line the REST artifact object", async () => {
    const sam = await h.world.user("sam");
    const other = await h.world.user("other");
    const ids: string[] = [];
    for (let i = 0; i < EXPORT_PAGE_SIZE + 2; i++) {
      const res = await h.call("POST", "/v1/artifacts", { token: sam.token, body: { title: `run ${i}`, body: `ok ${i}`, tags: ["batch"] } });
      ids.push(res.json.id);
      await new Promise((r) => setTimeout(r, 1)); // ids order by millisecond
    }
    await h.call("POST", "/v1/artifacts", { token: other.token, body: { title: "not sam's", body: "x", tags: ["batch"] } });

    const res = await h.call("GET", "/v1/export?tag=batch", { token: sam.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    const items = lines(res.text);
    expect(items.map((a) => a.id)).toEqual([...ids].reverse());
    const read = await h.call("GET", `/v1/artifacts/${ids[0]}`, { token: sam.token });
    expect(items.at(-1)).toEqual(read.json);
  });

  it("an empty export is an empty 200 body; bad input is a 422 envelope before anything streams", async () => {
    const sam = await h.world.user("sam");
    const empty = await h.call("GET", "/v1/export?tag=nothing-here", { token: sam.token });
    expect(empty.status).toBe(200);
    expect(empty.text).toBe("");
    const bad = await h.call("GET", "/v1/export?q=words", { token: sam.token });
    expect(bad.status).toBe(422);
    expect(bad.json.error.issues).toEqual([{ field: "q", reason: "is not a known field" }]);
    const anon = await h.call("GET", "/v1/export");
    expect(anon.status).toBe(401);
  });

  it("a failure after the first page breaks the transfer instead of ending it cleanly", async () => {
    const sam = await h.world.user("sam");
    for (let i = 0; i < EXPORT_PAGE_SIZE + 1; i++) {
      await h.call("POST", "/v1/artifacts", { token: sam.token, body: { title: `t ${i}`, body: "x", tags: ["fragile"] } });
    }
    const original = h.store.query;
    const spy = console.error;
    console.error = () => {};
    let selects = 0;
    (h.store as { query: unknown }).query = async (text: string, params?: unknown[]) => {
      if (text.includes("from artifacts a") && text.includes("order by") && ++selects > 1) throw new Error("database went away");
      return original.call(h.store, text, params);
    };
    try {
      const res = await h.app.request("/v1/export?tag=fragile", { headers: { authorization: `Bearer ${sam.token}` } });
      expect(res.status).toBe(200);
      await expect(res.text()).rejects.toThrow();
    } finally {
      (h.store as { query: unknown }).query = original;
      console.error = spy;
    }
  });

  it("POST /v1/artifacts/:id/retain keeps it permanently; others get 404 like a missing id", async () => {
    const sam = await h.world.user("sam");
    const eve = await h.world.user("eve");
    const created = await h.call("POST", "/v1/receipts", { token: sam.token, body: minimalReceipt({ learned: "retain me" }) });
    const denied = await h.call("POST", `/v1/artifacts/${created.json.id}/retain`, { token: eve.token });
    const missing = await h.call("POST", "/v1/artifacts/art_00000000000000000000000000/retain", { token: eve.token });
    expect(denied.status).toBe(404);
    expect({ error: { ...denied.json.error, request_id: undefined } }).toEqual({ error: { ...missing.json.error, request_id: undefined } });

    const kept = await h.call("POST", `/v1/artifacts/${created.json.id}/retain`, { token: sam.token });
    expect(kept.status).toBe(200);
    expect(kept.json).toMatchObject({ id: created.json.id, retained: true, expires_at: null });
    const read = await h.call("GET", `/v1/artifacts/${created.json.id}`, { token: sam.token });
    expect(read.json).toEqual(kept.json);
  });

  it("X-Cairn-Surface: cli is recorded in provenance; no header means rest; anything else is refused", async () => {
    const sam = await h.world.user("sam");
    const cli = await h.call("POST", "/v1/receipts", {
      token: sam.token,
      body: minimalReceipt({ learned: "from the cli" }),
      headers: { "X-Cairn-Surface": "cli" },
    });
    expect(cli.json.provenance.surface).toBe("cli");
    const rest = await h.call("POST", "/v1/receipts", { token: sam.token, body: minimalReceipt({ learned: "from curl" }) });
    expect(rest.json.provenance.surface).toBe("rest");
    const claim = await h.call("POST", "/v1/receipts", {
      token: sam.token,
      body: minimalReceipt({ learned: "claims mcp" }),
      headers: { "X-Cairn-Surface": "mcp" },
    });
    expect(claim.status).toBe(422);
    expect(claim.json.error.issues).toEqual([{ field: "X-Cairn-Surface", reason: "must be cli or rest" }]);
  });

  it("OpenAPI documents the export stream, the retain route and the surface header", async () => {
    const doc = (await h.call("GET", "/openapi.json")).json;
    const exp = doc.paths["/v1/export"].get;
    expect(exp.operationId).toBe("artifact_export");
    expect(Object.keys(exp.responses["200"].content)).toEqual(["application/x-ndjson"]);
    expect(doc.paths["/v1/artifacts/{id}/retain"].post.operationId).toBe("artifact_retain");
    const header = exp.parameters.find((p: { in: string; name: string }) => p.in === "header");
    expect(header.name).toBe("x-cairn-surface");
    expect(header.schema.enum).toEqual(["cli", "rest"]);
  });
});
