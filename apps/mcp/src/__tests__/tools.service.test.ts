import { createLogger, type ReceiptGate, type Store } from "@cairn/core";
import { ADAPTER_DRIVERS, createTestWorld, fullReceipt, minimalReceipt, openTestStore, type TestWorld } from "@cairn/core/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RPC_INTERNAL } from "../rpc.js";
import { createMcpServer } from "../server.js";

type Json = Record<string, any>;

/** A real SDK client talking to our server over the SDK's in-memory transport, as `principal`. */
async function connect(world: TestWorld, principal: TestWorld["admin"]["principal"]) {
  const server = createMcpServer(world.cairn, principal, { version: "test" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(clientSide);
  await client.listTools(); // caches output schemas, so every structuredContent below is validated against them
  return client;
}

function errorOf(result: Json): Json {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const { error } = JSON.parse(result.content[0].text);
  expect(result._meta["cairn.dev/error"]).toEqual(error);
  return error;
}

describe.each(ADAPTER_DRIVERS)("MCP tools on %s", (driver) => {
  let store: Store;
  let world: TestWorld;
  let sam: Awaited<ReturnType<TestWorld["user"]>>;
  let client: Client;
  beforeAll(async () => {
    store = await openTestStore(driver);
    world = await createTestWorld(store);
    sam = await world.user("sam");
    client = await connect(world, sam.principal);
  });
  afterAll(async () => {
    await client?.close();
    await store?.close();
  });

  it("artifact_search takes the filters and fields=summary; a bad filter is a tool error naming it", async () => {
    await client.callTool({ name: "receipt_create", arguments: minimalReceipt({ learned: "mcpfilterword", human_action: "Approve" }) });
    await client.callTool({ name: "receipt_create", arguments: minimalReceipt({ learned: "mcpfilterword plain" }) });
    const page = (await client.callTool({
      name: "artifact_search",
      arguments: { q: "mcpfilterword", human_action: "needed", fields: "summary" },
    })) as Json;
    expect(page.isError).toBeFalsy();
    expect(page.structuredContent.items).toHaveLength(1);
    expect(page.structuredContent.items[0]).not.toHaveProperty("body");
    const bad = errorOf(await client.callTool({ name: "artifact_search", arguments: { outcome: "late" } }));
    expect(bad.issues.map((i: { field: string }) => i.field)).toEqual(["outcome"]);
  });

  it("receipt_verify and keys_list are tools whose results fit their output schemas", async () => {
    const created = (await client.callTool({ name: "receipt_create", arguments: minimalReceipt({ learned: "mcp verify me" }) })) as Json;
    const verified = (await client.callTool({ name: "receipt_verify", arguments: { id: created.structuredContent.id } })) as Json;
    expect(verified.isError).toBeFalsy();
    expect(verified.structuredContent).toMatchObject({ valid: true, failed: null, id: created.structuredContent.id });
    const bad = (await client.callTool({ name: "receipt_verify", arguments: { line: "{}" } })) as Json;
    expect(bad.structuredContent).toMatchObject({ valid: false, failed: "payload" });
    const keys = (await client.callTool({ name: "keys_list", arguments: {} })) as Json;
    expect(keys.isError).toBeFalsy();
    expect(Array.isArray(keys.structuredContent.keys)).toBe(true);
  });

  it("creates a receipt: structuredContent is the artifact, mirrored as JSON text, provenance says mcp", async () => {
    const result = (await client.callTool({ name: "receipt_create", arguments: fullReceipt({ human_action: undefined }) })) as Json;
    expect(result.isError).toBeFalsy();
    const created = result.structuredContent;
    expect(JSON.parse(result.content[0].text)).toEqual(created);
    expect(created).toMatchObject({ owner: `user:${sam.name}`, metadata: { human_action: "Nothing" }, redactions: [] });
    expect(created.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(created.provenance).toMatchObject({ surface: "mcp", model: "opus-5", on_behalf_of: sam.name });
    expect(Date.parse(created.expires_at) - Date.parse(created.created_at)).toBe(7 * 86_400_000);

    const read = (await client.callTool({ name: "artifact_read", arguments: { id: created.id } })) as Json;
    const { redactions: _r, warnings: _w, ...stored } = created;
    expect(read.structuredContent).toEqual(stored);
  });

  it("refuses a duplicate as a tool error carrying the existing receipt", async () => {
    const first = (await client.callTool({ name: "receipt_create", arguments: minimalReceipt({ learned: "dup" }) })) as Json;
    const again = errorOf(await client.callTool({ name: "receipt_create", arguments: minimalReceipt({ learned: "dup" }) }));
    expect(again.code).toBe("duplicate");
    expect(again.existing).toEqual({ id: first.structuredContent.id, url: first.structuredContent.url });
    expect(again.drop).toMatchObject({ category: "duplicate", recoverable: false });
  });

  it("answers a call without arguments with every missing field", async () => {
    const error = errorOf(await client.callTool({ name: "receipt_create", arguments: {} }));
    expect(error.code).toBe("validation_failed");
    expect(error.issues.map((i: Json) => i.field)).toEqual(["changed", "affected", "before", "after", "evidence", "outcome", "remaining", "learned"]);
    expect(error.drop.category).toBe("invalid");
  });

  it("maps forbidden and not_found to tool errors with REST's bodies", async () => {
    const forbidden = errorOf(await client.callTool({ name: "receipt_create", arguments: minimalReceipt({ owner: "team:nobody" }) }));
    expect(forbidden).toMatchObject({ code: "forbidden", issues: [{ field: "owner" }] });
    const other = await world.user("other");
    const theirs = await world.cairn.invoke("artifact_create", other.ctx(), { title: "theirs", body: "x" });
    const hidden = errorOf(await client.callTool({ name: "artifact_read", arguments: { id: theirs.id } }));
    const missing = errorOf(await client.callTool({ name: "artifact_read", arguments: { id: "art_00000000000000000000000000" } }));
    expect(hidden.code).toBe("not_found");
    expect(hidden).toEqual(missing);
  });

  it("stores plain artifacts without metadata and finds them by tag and text", async () => {
    const made = (await client.callTool({
      name: "artifact_create",
      arguments: { title: "Runbook", body: "Restart the quokka service", tags: ["Runbook"], share_type: "text" },
    })) as Json;
    expect(made.structuredContent).toMatchObject({ share_type: "text", metadata: null, tags: ["runbook"] });
    const refused = errorOf(await client.callTool({ name: "artifact_create", arguments: { title: "t", body: "b", metadata: {} } }));
    expect(refused.issues).toEqual([{ field: "metadata", reason: "is not a known field" }]);
    const found = (await client.callTool({ name: "artifact_search", arguments: { tag: "runbook", q: "quokka", limit: 5 } })) as Json;
    expect(found.structuredContent.items.map((a: Json) => a.id)).toEqual([made.structuredContent.id]);
    expect(found.structuredContent.next_cursor).toBeNull();
  });

  it("answers an unknown tool with a protocol error", async () => {
    await expect(client.callTool({ name: "user_create", arguments: { name: "eve" } })).rejects.toMatchObject({ code: -32602 });
  });
});

describe.each(ADAPTER_DRIVERS)("MCP failures on %s", (driver) => {
  async function connected(options: { gates?: ReceiptGate[] } = {}) {
    const lines: string[] = [];
    const store = await openTestStore(driver);
    const world = await createTestWorld(store, { ...options, logger: createLogger({ write: (l) => void lines.push(l) }) });
    const sam = await world.user("sam");
    const server = createMcpServer(world.cairn, sam.principal, { version: "test" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1" });
    await client.connect(clientSide);
    return { store, client, lines };
  }

  it("internal ones are protocol errors without details, logged on the server by code", async () => {
    const boom: ReceiptGate = { name: "boom", check: () => Promise.reject(new Error("MARKER-mcp-91 in the message")) };
    const { store, client, lines } = await connected({ gates: [boom] });
    const failure = await client.callTool({ name: "receipt_create", arguments: minimalReceipt() }).then(
      () => null,
      (err: Json) => err,
    );
    expect(failure).toMatchObject({ code: RPC_INTERNAL, data: { error: { code: "internal" } } });
    expect(failure?.data.error.message).toBe("Something went wrong on the server. The error was logged.");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^cairn error internal surface=mcp tool=receipt_create error=Error/);
    expect(lines.join("\n")).not.toContain("MARKER-mcp-91");
    await client.close();
    await store.close();
  });

  it("an unreachable database is a tool error `unavailable` the model can read", async () => {
    const { store, client } = await connected();
    await store.close(); // the database goes away under a live server
    const result = (await client.callTool({ name: "artifact_search", arguments: {} })) as Json;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0].text).error.code).toBe("unavailable");
    await client.close();
  });
});
