import { spawn } from "node:child_process";
import { classifyDrop, faultOf, receiptQuestions } from "@cairn/core";
import { createTestHome, fullReceipt, minimalReceipt } from "@cairn/core/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminTokenIn, rest } from "./mcp-harness.js";
import { CLI_BIN, type ServeProcess, spawnServe } from "./serve-process.js";

type Json = Record<string, any>;

/**
 * SDK 1.x's own client, as an MCP host uses it, over both transports against one spawned
 * `cairn serve`: stdio through the built `cairn mcp`, and Streamable HTTP at /mcp.
 * Adapter behaviour is the same on both stores, so this runs on PGlite only.
 */
const TRANSPORTS: Record<"stdio" | "http", (url: string, token: string) => Transport> = {
  stdio: (url, token) =>
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI_BIN, "mcp"],
      env: { PATH: process.env.PATH ?? "", CAIRN_URL: url, CAIRN_TOKEN: token, CAIRN_HOME: "/nonexistent/cairn-home" },
      stderr: "pipe",
    }),
  http: (url, token) => new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
};

let serve: ServeProcess;
let dispose: () => Promise<void>;
let ada: string;
let theirs: string;
beforeAll(async () => {
  const home = await createTestHome("pglite");
  dispose = home.dispose;
  serve = await spawnServe(home.env);
  const admin = adminTokenIn(home.home);
  ada = (await rest(serve.url, admin, "POST", "/v1/users", { name: "ada" })).json.token.token;
  const eve = (await rest(serve.url, admin, "POST", "/v1/users", { name: "eve" })).json.token.token;
  theirs = (await rest(serve.url, eve, "POST", "/v1/artifacts", { title: "Eve's notes", body: "eve only" })).json.id;
});
afterAll(async () => {
  await serve?.stop();
  await dispose?.();
});

describe.each(Object.keys(TRANSPORTS) as Array<keyof typeof TRANSPORTS>)("the official SDK client over %s", (transport) => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: "cairn-test", version: "1" });
    await client.connect(TRANSPORTS[transport](serve.url, ada));
  });
  afterAll(async () => {
    await client?.close();
  });

  it("lists tools with titles and annotations, the resource template and the prompt", async () => {
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    const { tools } = await client.listTools();
    const receipt = tools.find((t) => t.name === "receipt_create");
    expect(receipt).toMatchObject({ title: expect.any(String), annotations: { readOnlyHint: false, openWorldHint: false } });
    expect(Object.keys(receipt?.inputSchema.properties ?? {})).not.toContain("schema");
    for (const t of tools) expect(t.annotations, t.name).toMatchObject({ readOnlyHint: expect.any(Boolean), openWorldHint: false });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["mcp://cairn/artifacts/{id}", "mcp://cairn/artifacts/{id}/a2ui", "mcp://cairn/runs/{id}"]);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["receipt"]);
  });

  it("reads a new receipt as a resource by the uri in its resource_link", async () => {
    const result = (await client.callTool({ name: "receipt_create", arguments: fullReceipt({ learned: `read over ${transport}` }) })) as Json;
    expect(result.isError).toBeFalsy();
    const created = result.structuredContent;
    const link = result.content.find((c: Json) => c.type === "resource_link");
    expect(link).toMatchObject({ uri: `mcp://cairn/artifacts/${created.id}`, mimeType: "text/markdown", title: created.title });
    const read = await client.readResource({ uri: link.uri });
    expect(read.contents).toEqual([{ uri: link.uri, mimeType: "text/markdown", text: created.body }]);
    const listed = await client.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain(link.uri);
  });

  it("is refused another owner's artifact with a clear error", async () => {
    const uri = `mcp://cairn/artifacts/${theirs}`;
    const refused: Json = await client.readResource({ uri }).catch((e: Json) => e);
    expect(refused).toMatchObject({ code: -32602, data: { uri, error: { code: "not_found" } } });
    expect(refused.message).toContain(`${uri}: No artifact with that id is visible to you`);
    expect(JSON.stringify(refused)).not.toContain("eve only");
  });

  it("gets the receipt prompt with the nine questions", async () => {
    const prompt = await client.getPrompt({ name: "receipt", arguments: { task: "ship the exporter" } });
    const text = (prompt.messages as Json[])[0]?.content.text as string;
    expect(text).toContain("ship the exporter");
    for (const q of receiptQuestions()) expect(text).toContain(q.question);
  });

  it("calls receipt_create with a broken receipt without throwing, and sees category, cause and next action", async () => {
    const broken = minimalReceipt({ changed: "Fixed", outcome: { status: "pending" } });
    const result = (await client.callTool({ name: "receipt_create", arguments: broken })) as Json;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const { error } = JSON.parse(result.content[0].text);
    expect(result._meta["cairn.dev/error"]).toEqual(error);
    expect(error.issues.map((i: Json) => i.field)).toEqual(["outcome.measure_at", "changed"]);
    const { category, cause, next_action } = classifyDrop("invalid", "mcp", faultOf(error.issues[0]), "");
    expect(error.drop).toMatchObject({ category, cause, next_action, surface: "mcp" });
    expect(next_action).toContain("call receipt_create again");
  });
});

/**
 * One JSON-RPC exchange with the built `cairn mcp`, by hand (the SDK's client always asks
 * for the newest revision): all messages in at once, in order; the answers by id.
 */
async function rawStdio(token: string, messages: Json[], expected = messages.filter((m) => m.id !== undefined).length): Promise<Map<number, Json>> {
  const child = spawn(process.execPath, [CLI_BIN, "mcp"], {
    env: { PATH: process.env.PATH ?? "", CAIRN_URL: serve.url, CAIRN_TOKEN: token, CAIRN_HOME: "/nonexistent/cairn-home" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const answers = new Map<number, Json>();
  let buffer = "";
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 20_000);
    child.stdout.on("data", (d) => {
      buffer += d;
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        const answer = JSON.parse(line) as Json;
        answers.set(answer.id, answer);
      }
      if (answers.size >= expected) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stdin.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(""));
  });
  child.stdin.end();
  if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
  return answers;
}

describe("a client of an older revision", () => {
  const receiptCall = (learned: string) => ({
    jsonrpc: "2.0",
    method: "tools/call",
    params: { name: "receipt_create", arguments: minimalReceipt({ learned }) },
  });
  const types = (answer: Json | undefined) => ((answer?.result.content ?? []) as Json[]).map((c) => c.type);

  it("gets no resource_link over HTTP when it speaks 2025-03-26, and one when it speaks 2025-06-18", async () => {
    const call = async (version: string, learned: string) => {
      const res = await fetch(`${serve.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${ada}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": version,
        },
        body: JSON.stringify({ ...receiptCall(learned), id: 1 }),
      });
      return (await res.json()) as Json;
    };
    expect(types(await call("2025-03-26", "old http client"))).toEqual(["text"]);
    expect(types(await call("2025-06-18", "newer http client"))).toEqual(["text", "resource_link"]);
  });

  it("gets no resource_link through cairn mcp when it negotiated 2025-03-26", async () => {
    const initialize = (id: number, protocolVersion: string) => ({
      jsonrpc: "2.0",
      id,
      method: "initialize",
      params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
    const old = await rawStdio(ada, [initialize(1, "2025-03-26"), initialized, { ...receiptCall("old stdio client"), id: 2 }]);
    expect(old.get(1)?.result.protocolVersion).toBe("2025-03-26");
    expect(types(old.get(2))).toEqual(["text"]);
    const current = await rawStdio(ada, [initialize(1, "2026-07-28"), initialized, { ...receiptCall("new stdio client"), id: 2 }]);
    expect(current.get(1)?.result.protocolVersion).toBe("2025-11-25");
    expect(types(current.get(2))).toEqual(["text", "resource_link"]);
  });
});

describe("cairn mcp on stdio, message by message", () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };

  it("answers ping and unknown methods itself, skips lines that are not JSON-RPC, and relays the rest as the server answers", async () => {
    const answers = await rawStdio(ada, [
      initialize,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "ping" },
      { jsonrpc: "2.0", id: 3, method: "completion/complete", params: {} },
      { not: "json-rpc" },
      { jsonrpc: "2.0", id: "four", method: "tools/call", params: { name: "artifact_read", arguments: { id: theirs } } },
    ]);
    expect(answers.get(1)?.result).toMatchObject({
      protocolVersion: "2025-06-18",
      capabilities: { tools: {}, resources: {}, prompts: {} },
      serverInfo: { name: "cairn" },
    });
    expect(answers.get(2)).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(answers.get(3)).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32601, message: "Method not found" } });
    const viaHttp = await fetch(`${serve.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${ada}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: "four", method: "tools/call", params: { name: "artifact_read", arguments: { id: theirs } } }),
    });
    // The same answer but for the request id each HTTP request was given (SPEC §30).
    const sameBut = (answer: Json, id: string) => ({ ...answer, result: { ...answer.result, _meta: { ...answer.result._meta, request_id: id } } });
    const http = (await viaHttp.json()) as Json;
    expect(http.result._meta.request_id).toBe(viaHttp.headers.get("x-request-id"));
    expect(answers.get("four" as never)).toEqual(sameBut(http, (answers.get("four" as never) as Json).result._meta.request_id));
    expect(answers.size).toBe(4);
  });

  it("sends no answer to a call the client cancelled, and still answers the next", async () => {
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "artifact_search", arguments: {} } });
    const answers = await rawStdio(
      ada,
      [initialize, call(2), { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "changed my mind" } }, call(3)],
      2,
    );
    expect([...answers.keys()].sort()).toEqual([1, 3]);
    expect(answers.get(3)?.result.isError).toBeFalsy();
  });
});

describe("protocol version negotiation on /mcp", () => {
  const initialize = async (protocolVersion: string) => {
    const res = await fetch(`${serve.url}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${ada}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    });
    return ((await res.json()) as Json).result.protocolVersion;
  };

  it("answers a version it speaks with that version, and a newer one with the newest it speaks", async () => {
    expect(await initialize("2025-06-18")).toBe("2025-06-18");
    expect(await initialize("2025-11-25")).toBe("2025-11-25");
    expect(await initialize("2026-07-28")).toBe("2025-11-25");
  });
});
