import { classifyDrop, receiptQuestions, type Store } from "@cairn/core";
import { createTestWorld, minimalReceipt, openTestStore, type TestWorld } from "@cairn/core/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "../server.js";

type Json = Record<string, any>;
const DAY = 86_400_000;

/** A real SDK client over the in-memory transport, as `principal`, on a world whose clock the test moves. */
async function connect(world: TestWorld, principal: TestWorld["admin"]["principal"]) {
  const server = createMcpServer(world.cairn, principal, { version: "test" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(clientSide);
  await client.listTools();
  return client;
}

describe("MCP resources and prompts (in memory, PGlite)", () => {
  let store: Store;
  let world: TestWorld;
  let now = Date.parse("2026-12-01T09:00:00Z");
  let sam: Awaited<ReturnType<TestWorld["user"]>>;
  let client: Client;
  beforeAll(async () => {
    store = await openTestStore("pglite");
    world = await createTestWorld(store, () => new Date(now));
    sam = await world.user("sam");
    client = await connect(world, sam.principal);
  });
  afterAll(async () => {
    await client?.close();
    await store?.close();
  });

  it("serves each share type with its MIME type, by the uri in the create's resource_link", async () => {
    for (const [share_type, mimeType, body] of [
      ["markdown", "text/markdown", "# Notes"],
      ["text", "text/plain", "plain words"],
      ["json", "application/json", '{"ok":true}'],
    ] as const) {
      now += 1000; // ids are time-ordered: one per second keeps "newest first" deterministic
      const made = (await client.callTool({ name: "artifact_create", arguments: { title: share_type, body, share_type } })) as Json;
      const link = made.content.find((c: Json) => c.type === "resource_link");
      expect(link).toMatchObject({ uri: `mcp://cairn/artifacts/${made.structuredContent.id}`, name: made.structuredContent.id, mimeType });
      const read = await client.readResource({ uri: link.uri });
      expect(read.contents).toEqual([{ uri: link.uri, mimeType, text: body }]);
    }
  });

  it("lists the caller's artifacts newest first, paged with search's cursor", async () => {
    const first = await client.listResources();
    expect(first.resources.map((r) => r.title)).toEqual(["Receipt card", "json", "text", "markdown"]);
    expect(first.resources[0]).toMatchObject({ uri: "ui://cairn/receipt-card", mimeType: "text/html;profile=mcp-app" });
    expect(first.nextCursor).toBeUndefined();
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      "mcp://cairn/artifacts/{id}",
      "mcp://cairn/artifacts/{id}/a2ui",
      "mcp://cairn/runs/{id}",
    ]);
  });

  it("refuses another owner's artifact, a uri not of the form, and an expired artifact", async () => {
    const other = await world.user("other");
    const theirs = await world.cairn.invoke("artifact_create", other.ctx(), { title: "theirs", body: "secret plans" });
    const refused = await client.readResource({ uri: `mcp://cairn/artifacts/${theirs.id}` }).catch((e: Json) => e);
    expect(refused).toMatchObject({ code: -32602, data: { uri: `mcp://cairn/artifacts/${theirs.id}`, error: { code: "not_found" } } });
    expect(refused.message).toContain("No artifact with that id is visible to you");
    expect(JSON.stringify(refused)).not.toContain("secret plans");
    const malformed = await client.readResource({ uri: "mcp://cairn/runs/x" }).catch((e: Json) => e);
    expect(malformed).toMatchObject({ code: -32602 });
    expect(malformed.message).toContain("mcp://cairn/artifacts/{id}");
    expect(malformed.message).toContain("mcp://cairn/runs/{id}");

    const mine = await world.cairn.invoke("artifact_create", sam.ctx(), { title: "short-lived", body: "soon gone" });
    now += 8 * DAY;
    const gone = await client.readResource({ uri: `mcp://cairn/artifacts/${mine.id}` }).catch((e: Json) => e);
    expect(gone).toMatchObject({ code: -32602, data: { error: { code: "gone" } } });
    expect(gone.message).toContain("expired");
  });

  it("reads a team's artifact for a member, by the same read rule as artifact_read", async () => {
    const mate = await world.user("mate");
    const team = await world.team([mate, sam]);
    const shared = await world.cairn.invoke("artifact_create", mate.ctx(), { title: "team notes", body: "for the team", owner: team });
    const teamClient = await connect(world, sam.principal);
    const read = await teamClient.readResource({ uri: `mcp://cairn/artifacts/${shared.id}` });
    expect(read.contents[0]).toMatchObject({ text: "for the team", mimeType: "text/markdown" });
    await teamClient.close();
  });

  it("reads a run as JSON for its owner and for members of its team, and as not found for anyone else", async () => {
    const run = await world.cairn.invoke("run_create", sam.ctx(), { name: "nightly export" });
    await world.cairn.invoke("run_append_spans", sam.ctx(), {
      run_id: run.id,
      spans: [{ span_id: "s1", name: "export <all>", start_time: "2026-11-01T08:00:00Z", attributes: { rows: 12 } }],
    });
    const read = await client.readResource({ uri: `mcp://cairn/runs/${run.id}` });
    expect(read.contents[0]).toMatchObject({ uri: `mcp://cairn/runs/${run.id}`, mimeType: "application/json" });
    const body = JSON.parse((read.contents[0] as { text: string }).text);
    expect(body).toMatchObject({ id: run.id, name: "nightly export", spans: [{ span_id: "s1", name: "export <all>", attributes: { rows: 12 } }] });

    const stranger = await connect(world, (await world.user("stranger")).principal);
    const refused = await stranger.readResource({ uri: `mcp://cairn/runs/${run.id}` }).catch((e: Json) => e);
    expect(refused).toMatchObject({ code: -32602, data: { error: { code: "not_found" } } });
    expect(JSON.stringify(refused)).not.toContain("export <all>");
    await stranger.close();

    const mate = await world.user("runmate");
    const team = await world.team([mate, sam]);
    const teamRun = await world.cairn.invoke("run_create", mate.ctx(), { name: "team run", owner: team });
    const teamClient = await connect(world, sam.principal);
    const member = await teamClient.readResource({ uri: `mcp://cairn/runs/${teamRun.id}` });
    expect(JSON.parse((member.contents[0] as { text: string }).text).owner).toBe(team);
    await teamClient.close();
  });

  it("offers the receipt prompt with core's nine questions and the task", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([
      expect.objectContaining({ name: "receipt", title: "Leave a receipt", arguments: [expect.objectContaining({ name: "task", required: false })] }),
    ]);
    const prompt = await client.getPrompt({ name: "receipt", arguments: { task: "rotate the api keys" } });
    const text = (prompt.messages as Json[])[0]?.content.text as string;
    expect(text).toContain("rotate the api keys");
    for (const q of receiptQuestions()) expect(text).toContain(q.question);
    await expect(client.getPrompt({ name: "nope" })).rejects.toMatchObject({ code: -32602 });
  });

  it("answers a broken receipt with a tool error the client accepts, its next action phrased for MCP", async () => {
    const result = (await client.callTool({ name: "receipt_create", arguments: minimalReceipt({ outcome: { status: "measured" } }) })) as Json;
    expect(result.isError).toBe(true);
    const error = result._meta["cairn.dev/error"];
    expect(error.drop).toMatchObject({ category: "invalid", next_action: classifyDrop("invalid", "mcp", "missing", "").next_action });
    expect(error.drop.next_action).not.toMatch(/GET \//);
  });
});
