import type { Store } from "@cairn/core";
import { authenticate } from "@cairn/core";
import { createTestWorld, minimalReceipt, openTestStore, type TestWorld } from "@cairn/core/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "../server.js";

type Json = Record<string, any>;
const ASK = {
  options: [
    { id: "approve", label: "Approve" },
    { id: "reject", label: "Reject" },
  ],
  answer_by: "48h",
};

describe("MCP: an agent asks, and hears the answer with decision_wait", () => {
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

  it("is told how to wait, waits while open, and reads the person's answer; it has no tool to answer", async () => {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain("decision_wait");
    expect(tools).not.toContain("artifact_decide");

    const created = (await client.callTool({
      name: "receipt_create",
      arguments: { ...minimalReceipt(), human_action: "Approve the migration?", ask: ASK },
    })) as Json;
    expect(created.isError).toBeFalsy();
    const id = created.structuredContent.id;
    expect(created.structuredContent.ask.options).toEqual(ASK.options);
    const hint = created.content.find((c: Json) => c.type === "text" && c.text.startsWith("This receipt asks"))?.text;
    expect(hint).toContain(`decision_wait {"id": "${id}", "timeout_s": 60}`);
    expect(hint).toContain("Approve (approve), Reject (reject)");

    const open = (await client.callTool({ name: "decision_wait", arguments: { id, timeout_s: 0 } })) as Json;
    expect(open.structuredContent).toEqual({ state: "open", decision: null });

    const waiting = client.callTool({ name: "decision_wait", arguments: { id, timeout_s: 30 } });
    await new Promise((r) => setTimeout(r, 200));
    await world.cairn.invoke("artifact_decide", sam.ctx("cli"), { id, option: "approve", comment: "ship it" });
    const heard = (await waiting) as Json;
    expect(heard.isError).toBeFalsy();
    expect(heard.structuredContent).toMatchObject({
      state: "decided",
      decision: { option: "approve", label: "Approve", comment: "ship it", via: "cli", by: { user: sam.name } },
    });

    const tooLong = (await client.callTool({ name: "decision_wait", arguments: { id, timeout_s: 61 } })) as Json;
    expect(tooLong.isError).toBe(true);
    expect(tooLong.content[0].text).toContain("timeout_s");
  });
});
