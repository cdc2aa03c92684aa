import { createTestHome, DRIVERS, minimalReceipt } from "@cairn/core/testing";
import { processA2ui } from "@cairn/core/testing/a2ui";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2 } from "@modelcontextprotocol/client/stdio";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminTokenIn, rest } from "./mcp-harness.js";
import { CLI_BIN, type ServeProcess, spawnServe } from "./serve-process.js";

type Json = Record<string, any>;

const stdioEnv = (url: string, token: string) => ({ PATH: process.env.PATH ?? "", CAIRN_URL: url, CAIRN_TOKEN: token, CAIRN_HOME: "/nonexistent/cairn-home" });

/**
 * Both lines of the official TypeScript SDK against one real `cairn serve` per store, over
 * /mcp and through `cairn mcp`: SDK 2 in auto mode ends in the 2026-07-28 ("modern") era,
 * SDK 1.x in a 2025 one; both list the same tools, create a receipt and are refused
 * another user's artifact with the same body and a request id the server logged.
 */
describe.each(DRIVERS)("MCP eras against cairn serve (%s)", (driver) => {
  let serve: ServeProcess;
  let dispose: () => Promise<void>;
  let ada: string;
  let theirs: string;
  let eve: string;
  beforeAll(async () => {
    const home = await createTestHome(driver);
    dispose = home.dispose;
    serve = await spawnServe({ ...home.env, CAIRN_ACCESS_LOG: "1" });
    const admin = adminTokenIn(home.home);
    ada = (await rest(serve.url, admin, "POST", "/v1/users", { name: "ada" })).json.token.token;
    eve = (await rest(serve.url, admin, "POST", "/v1/users", { name: "eve" })).json.token.token;
    theirs = (await rest(serve.url, eve, "POST", "/v1/artifacts", { title: "Eve's notes", body: "eve only" })).json.id;
  });
  afterAll(async () => {
    await serve?.stop();
    await dispose?.();
  });

  const modern = () => new Client2({ name: "cairn-test", version: "2" }, { versionNegotiation: { mode: "auto" } });
  const CASES = [
    {
      name: "SDK 2 (auto) over /mcp",
      era: "modern",
      version: "2026-07-28",
      connect: () => connect2(new Http2(new URL(`${serve.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${ada}` } } })),
    },
    {
      name: "SDK 2 (auto) over cairn mcp",
      era: "modern",
      version: "2026-07-28",
      connect: () => connect2(new Stdio2({ command: process.execPath, args: [CLI_BIN, "mcp"], env: stdioEnv(serve.url, ada), stderr: "pipe" })),
    },
    {
      name: "SDK 1.x over /mcp",
      era: "legacy",
      version: undefined,
      connect: () => connect1(new Http1(new URL(`${serve.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${ada}` } } })),
    },
    {
      name: "SDK 1.x over cairn mcp",
      era: "legacy",
      version: undefined,
      connect: () => connect1(new Stdio1({ command: process.execPath, args: [CLI_BIN, "mcp"], env: stdioEnv(serve.url, ada), stderr: "pipe" })),
    },
  ] as const;
  async function connect2(transport: Http2 | Stdio2) {
    const client = modern();
    await client.connect(transport);
    return { client: client as unknown as Json, era: client.getProtocolEra(), version: client.getNegotiatedProtocolVersion() };
  }
  async function connect1(transport: Http1 | Stdio1) {
    const client = new Client1({ name: "cairn-test", version: "1" });
    await client.connect(transport);
    return { client: client as unknown as Json, era: "legacy", version: undefined };
  }

  it.each(CASES)("$name: negotiates its era, lists tools, creates a receipt, is refused another's artifact", async (c) => {
    const { client, era, version } = await c.connect();
    try {
      expect(era).toBe(c.era);
      if (c.era === "modern") expect(version).toBe(c.version);
      const { tools } = await client.listTools();
      const names = tools.map((t: Json) => t.name);
      expect(names).toEqual(expect.arrayContaining(["receipt_create", "artifact_read", "artifact_search", "doctor"]));
      const create = tools.find((t: Json) => t.name === "receipt_create");
      expect(create.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: false });
      expect(create.outputSchema.type).toBe("object");

      const made = await client.callTool({ name: "receipt_create", arguments: minimalReceipt({ learned: `era ${c.name}` }), _meta: {} });
      expect(made.isError, JSON.stringify(made)).toBeFalsy();
      expect(made.structuredContent).toMatchObject({ tags: expect.arrayContaining(["receipt"]), provenance: expect.objectContaining({ surface: "mcp" }) });
      expect(made.content[0]).toEqual({ type: "text", text: JSON.stringify(made.structuredContent) });
      expect(made.content[1]).toMatchObject({ type: "resource_link", uri: `mcp://cairn/artifacts/${made.structuredContent.id}` });

      const read = await client.readResource({ uri: `mcp://cairn/artifacts/${made.structuredContent.id}` });
      expect(read.contents[0]).toMatchObject({ mimeType: "text/markdown", text: made.structuredContent.body });

      const refused = await client.callTool({ name: "artifact_read", arguments: { id: theirs } });
      expect(refused.isError).toBe(true);
      const body = JSON.parse(refused.content[0].text).error;
      expect(body).toMatchObject({ code: "not_found" });
      expect(refused._meta["cairn.dev/error"]).toEqual(body);
      expect(refused._meta.request_id).toMatch(/\S/);
      expect(serve.output()).toContain(refused._meta.request_id);

      // The receipt card (MCP App): declared by both tools, served self-contained, its data beside the result.
      for (const name of ["receipt_create", "artifact_read"]) {
        const tool = tools.find((t: Json) => t.name === name);
        expect(tool._meta).toMatchObject({ ui: { resourceUri: "ui://cairn/receipt-card" }, "ui/resourceUri": "ui://cairn/receipt-card" });
      }
      expect(tools.find((t: Json) => t.name === "doctor")._meta?.ui).toBeUndefined();
      const app = (await client.readResource({ uri: "ui://cairn/receipt-card" })).contents[0];
      expect(app).toMatchObject({
        uri: "ui://cairn/receipt-card",
        mimeType: "text/html;profile=mcp-app",
        _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] } } },
      });
      expect(app.text).toMatch(/^<!doctype html>/);
      expect(app.text).not.toMatch(/<script[^>]*\bsrc=|<link\b|@import|\burl\(|https?:\/\//);
      expect(made._meta["cairn.dev/card"]).toMatchObject({ id: made.structuredContent.id, page: `${serve.url}/a/${made.structuredContent.id}` });
      expect(made._meta["cairn.dev/card"].card.tldr.text).toBe(made.structuredContent.metadata.changed);

      const prompt = await client.getPrompt({ name: "receipt", arguments: { task: "rotate keys" } });
      expect(prompt.messages[0].content.text).toContain("rotate keys");
    } finally {
      await client.close();
    }
  });

  it("serves a receipt's A2UI over REST and as an MCP resource, by artifact_read's rule", async () => {
    const made = await rest(serve.url, ada, "POST", "/v1/receipts", minimalReceipt({ learned: "the a2ui one" }));
    const id = made.json.id as string;
    const viaRest = await rest(serve.url, ada, "GET", `/v1/artifacts/${id}/a2ui`);
    expect(viaRest.status).toBe(200);
    const texts = processA2ui(viaRest.json).texts();
    expect(texts).toContain(made.json.metadata.changed);
    expect(texts).toContain("the a2ui one");
    expect(texts.indexOf(made.json.metadata.changed)).toBeLessThan(texts.indexOf("the a2ui one"));

    const refused = await rest(serve.url, eve, "GET", `/v1/artifacts/${id}/a2ui`);
    expect(refused.status).toBe(404);
    expect(refused.json.error.code).toBe("not_found");
    const notReceipt = await rest(serve.url, eve, "GET", `/v1/artifacts/${theirs}/a2ui`);
    expect(notReceipt.status).toBe(404);
    expect(notReceipt.json.error.message).toContain("is not a receipt");

    const uri = `mcp://cairn/artifacts/${id}/a2ui`;
    for (const c of [CASES[0], CASES[2]]) {
      const { client } = await c.connect();
      try {
        const read = (await client.readResource({ uri })).contents[0];
        expect(read).toMatchObject({ uri, mimeType: "application/a2ui+json" });
        expect(JSON.parse(read.text)).toEqual(viaRest.json);
        const templates = (await client.listResourceTemplates()).resourceTemplates.map((t: Json) => t.uriTemplate);
        expect(templates).toContain("mcp://cairn/artifacts/{id}/a2ui");
      } finally {
        await client.close();
      }
    }
    const stranger = new Client1({ name: "cairn-test", version: "1" });
    await stranger.connect(new Http1(new URL(`${serve.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${eve}` } } }));
    try {
      const error: Json = await stranger.readResource({ uri }).catch((e: Json) => e);
      expect(error).toMatchObject({ code: -32602, data: { error: { code: "not_found" } } });
      expect(JSON.stringify(error)).not.toContain("the a2ui one");
    } finally {
      await stranger.close();
    }
  });

  it("serves both eras the same tool list", async () => {
    const a = await CASES[0].connect();
    const b = await CASES[2].connect();
    try {
      const strip = (tools: Json[]) => tools.map(({ execution: _e, ...t }) => t);
      expect(strip((await a.client.listTools()).tools)).toEqual(strip((await b.client.listTools()).tools));
    } finally {
      await a.client.close();
      await b.client.close();
    }
  });
});
