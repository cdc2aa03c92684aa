import { classifyDrop, faultOf } from "@cairn/core";
import { ADAPTER_DRIVERS, fullReceipt, minimalReceipt } from "@cairn/core/testing";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpClient, type InProcessServer, rest, startInProcess, toolError } from "./mcp-harness.js";

// Invalid receipts an agent might send; MCP must name exactly the fields REST names.
const INVALID: Array<[string, Record<string, unknown>]> = [
  ["pending without a date", minimalReceipt({ outcome: { status: "pending" } })],
  ["a file: evidence link", minimalReceipt({ evidence: [{ label: "log", url: "file:///var/log/x" }] })],
  ["a one-word TL;DR and a typo", minimalReceipt({ changed: "fixed", learnt: "x" })],
  ["text over its limit", minimalReceipt({ after: "y".repeat(4001), remaining: [{ item: "" }] })],
  ["an unknown schema", minimalReceipt({ schema: "acme.receipt/v9" })],
];

describe.each(ADAPTER_DRIVERS)("MCP over Streamable HTTP on a running server (%s)", (driver) => {
  let server: InProcessServer;
  let client: Client;
  beforeAll(async () => {
    server = await startInProcess(driver);
    client = await httpClient(server.url, server.token);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it("lists the tools with input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "receipt_create",
      "artifact_create",
      "artifact_read",
      "artifact_search",
      "artifact_assign",
      "artifact_transfer",
      "comment_create",
      "comment_list",
      "run_create",
      "run_append_spans",
      "run_close",
      "run_read",
      "run_list",
      "drops_list",
      "doctor",
      "status",
      "policy_get",
      "policy_set",
      "subscription_list",
      "inbox_list",
      "outcomes_list",
      "decision_wait",
      "keys_list",
      "receipt_verify",
    ]);
    const receipt = tools[0] as any;
    for (const [field, prop] of Object.entries<any>(receipt.inputSchema.properties)) {
      expect(prop.description, field).toMatch(/\w{3,}/);
    }
    expect(tools.every((t) => t.outputSchema?.type === "object")).toBe(true);
  });

  it("creates a receipt that reads back over REST with the same body and checksum, via mcp", async () => {
    const result: any = await client.callTool({ name: "receipt_create", arguments: fullReceipt() });
    const created = result.structuredContent;
    expect(Object.keys(created)).toEqual(expect.arrayContaining(["id", "url", "checksum", "expires_at"]));
    expect(JSON.parse(result.content[0].text)).toEqual(created);
    expect(created.provenance.surface).toBe("mcp");

    const read = await rest(server.url, server.token, "GET", `/v1/artifacts/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.json.body).toBe(created.body);
    expect(read.json.checksum).toBe(created.checksum);
    expect(read.json.metadata).toEqual(created.metadata);

    // Reading through MCP gives REST's bytes exactly.
    const viaMcp: any = await client.callTool({ name: "artifact_read", arguments: { id: created.id } });
    expect(viaMcp.content[0].text).toBe(read.text);
  });

  it.each(INVALID)("an invalid call (%s) is a tool error naming the fields REST names", async (_case, input) => {
    const viaRest = await rest(server.url, server.token, "POST", "/v1/receipts", input);
    expect(viaRest.status).toBe(422);
    expect(viaRest.json.error.issues.length).toBeGreaterThan(0);
    const viaMcp = toolError(await client.callTool({ name: "receipt_create", arguments: input }));
    expect(viaMcp.error.code).toBe(viaRest.json.error.code);
    expect(viaMcp.error.issues).toEqual(viaRest.json.error.issues);
    // Each call leaves its own drop receipt: same classification and fields, its own id, time and
    // surface, and a next action phrased for its surface's reader.
    const { id: _m, created_at: _mt, surface: mcpSurface, next_action: mcpNext, ...mcpDrop } = viaMcp.error.drop;
    const { id: _r, created_at: _rt, surface: restSurface, next_action: restNext, ...restDrop } = viaRest.json.error.drop;
    expect(mcpDrop).toEqual(restDrop);
    expect([mcpSurface, restSurface]).toEqual(["mcp", "rest"]);
    const fault = faultOf(viaRest.json.error.issues[0]);
    expect([mcpNext, restNext]).toEqual([
      classifyDrop(mcpDrop.category, "mcp", fault, server.url).next_action,
      classifyDrop(restDrop.category, "rest", fault, server.url).next_action,
    ]);
  });

  it("answers a duplicate with the existing receipt, like REST's 409", async () => {
    const input = minimalReceipt({ learned: `dup ${driver}` });
    const first = await rest(server.url, server.token, "POST", "/v1/receipts", input);
    const again = toolError(await client.callTool({ name: "receipt_create", arguments: input }));
    expect(again.error.code).toBe("duplicate");
    expect(again.error.existing).toEqual({ id: first.json.id, url: first.json.url });
  });

  it("refuses a request without a token with REST's 401 envelope", async () => {
    const res = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toBeTruthy();
    // The id a user can quote is the one the header and the log line carry (SPEC §30).
    expect(await res.json()).toEqual({ error: { code: "unauthenticated", message: "A bearer token is required.", request_id: requestId } });
    await expect(httpClient(server.url, "cairn_not_a_token")).rejects.toMatchObject({ code: 401 });
  });

  it("is stateless: no session id, and GET has no stream (405)", async () => {
    const headers = { authorization: `Bearer ${server.token}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
    const init = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
      }),
    });
    expect(init.status).toBe(200);
    expect(init.headers.get("mcp-session-id")).toBeNull();
    expect(init.headers.get("content-type")).toMatch(/application\/json/);
    expect(((await init.json()) as any).result.serverInfo.name).toBe("cairn");
    const get = await fetch(`${server.url}/mcp`, { headers: { ...headers, accept: "text/event-stream" } });
    expect(get.status).toBe(405);
  });
});
