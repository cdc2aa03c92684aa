import type { Store } from "@cairn/core";
import { authenticate } from "@cairn/core";
import { createTestWorld, minimalReceipt, openTestStore, type TestWorld } from "@cairn/core/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "../server.js";

type Json = Record<string, any>;

describe("MCP inbox_list and outcomes_list", () => {
  let store: Store;
  let world: TestWorld;
  let client: Client;
  let sam: Awaited<ReturnType<TestWorld["user"]>>;
  beforeAll(async () => {
    store = await openTestStore("pglite");
    world = await createTestWorld(store);
    sam = await world.user("sam");
    const minted = await world.cairn.invoke("token_create", sam.ctx(), { name: "claude", kind: "agent" });
    const agent = await authenticate(store, minted.token);
    if (!agent) throw new Error("agent token did not authenticate");
    const server = createMcpServer(world.cairn, agent, { version: "test" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: "test", version: "1" });
    await client.connect(clientSide);
  });
  afterAll(async () => {
    await client?.close();
    await store?.close();
  });

  it("an agent sees what waits on people, validated against the output schemas, and has no tool to acknowledge", async () => {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["inbox_list", "outcomes_list"]));
    expect(tools).not.toContain("artifact_acknowledge");

    const created = (await client.callTool({
      name: "receipt_create",
      arguments: minimalReceipt({ human_action: "Rotate the key", outcome: { status: "pending", measure_at: "2020-01-01" } }),
    })) as Json;
    const id = created.structuredContent.id;
    const inbox = (await client.callTool({ name: "inbox_list", arguments: {} })) as Json;
    expect(inbox.isError).toBeFalsy();
    expect(inbox.structuredContent.items.map((i: Json) => [i.id, i.state, i.human_action])).toEqual([[id, "open", "Rotate the key"]]);
    const outcomes = (await client.callTool({ name: "outcomes_list", arguments: { state: "all" } })) as Json;
    expect(outcomes.structuredContent.items.map((o: Json) => [o.id, o.state])).toEqual([[id, "overdue"]]);

    await world.cairn.invoke("artifact_acknowledge", sam.ctx(), { id, note: "rotated" });
    const after = (await client.callTool({ name: "inbox_list", arguments: { state: "acknowledged" } })) as Json;
    expect(after.structuredContent.items[0].acknowledgements).toEqual([
      { by: { user: sam.name, token_name: "initial" }, at: expect.any(String), note: "rotated" },
    ]);
    const read = (await client.callTool({ name: "artifact_read", arguments: { id } })) as Json;
    expect(read.structuredContent.acknowledgements).toHaveLength(1);
  });
});
