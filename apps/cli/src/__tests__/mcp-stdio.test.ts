import { createServer } from "node:net";
import { ADAPTER_DRIVERS, fullReceipt, minimalReceipt, runNode } from "@cairn/core/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminTokenIn, httpClient, rest, toolError } from "./mcp-harness.js";
import { CLI_BIN, homeFor, type ServeProcess, spawnServe } from "./serve-process.js";

/** `cairn mcp` with only the given environment (plus PATH), its stdout/stdin being the protocol. */
async function stdioClient(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, "mcp"],
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d) => {
    stderr += d;
  });
  const client = new Client({ name: "cairn-test", version: "1" });
  await client.connect(transport);
  await client.listTools();
  return { client, stderr: () => stderr };
}

/**
 * Runs `cairn mcp` to its end with stdin open, as an MCP client would launch it;
 * `onStderr` may act on what it says (e.g. close stdin once it serves).
 */
function runMcp(
  env: Record<string, string>,
  onStderr: (text: string, stdin: NodeJS.WritableStream) => void = () => {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runNode([CLI_BIN, "mcp"], { env: { PATH: process.env.PATH ?? "", ...env }, input: null, onStderr, timeoutMs: 20_000 });
}

/** A loopback port nothing listens on (bound once, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe.each(ADAPTER_DRIVERS)("cairn mcp (stdio) against a spawned cairn serve on %s", (driver) => {
  let serve: ServeProcess;
  let home: string;
  let token: string;
  let dispose: () => Promise<void>;
  let stdio: Awaited<ReturnType<typeof stdioClient>>;
  let http: Client;
  beforeAll(async () => {
    const h = await homeFor(driver);
    home = h.home;
    dispose = h.dispose;
    serve = await spawnServe(h.env);
    token = adminTokenIn(home);
    // No CAIRN_URL or CAIRN_TOKEN: the credentials file `cairn serve` wrote is enough on this machine.
    stdio = await stdioClient({ CAIRN_HOME: home });
    http = await httpClient(serve.url, token);
  });
  afterAll(async () => {
    await stdio?.client.close();
    await http?.close();
    await serve?.stop();
    await dispose?.();
  });

  it("lists exactly the tools the HTTP endpoint lists", async () => {
    const viaStdio = await stdio.client.listTools();
    expect(viaStdio.tools.map((t) => t.name)).toEqual([
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
    expect(viaStdio).toEqual(await http.listTools());
    expect(stdio.client.getInstructions()).toMatch(/receipt_create/);
  });

  it("creates a receipt that REST reads back with the same body and checksum, recorded as mcp", async () => {
    const result: any = await stdio.client.callTool({ name: "receipt_create", arguments: fullReceipt({ model: "opus-5" }) });
    const created = result.structuredContent;
    expect(created.provenance).toMatchObject({ surface: "mcp", model: "opus-5", on_behalf_of: "admin" });
    const read = await rest(serve.url, token, "GET", `/v1/artifacts/${created.id}`);
    expect(read.status).toBe(200);
    expect([read.json.body, read.json.checksum]).toEqual([created.body, created.checksum]);

    // stdio and HTTP give byte-identical answers.
    const viaStdio: any = await stdio.client.callTool({ name: "artifact_read", arguments: { id: created.id } });
    const viaHttp: any = await http.callTool({ name: "artifact_read", arguments: { id: created.id } });
    expect(viaStdio.content[0].text).toBe(viaHttp.content[0].text);
    expect(viaStdio.content[0].text).toBe(read.text);
  });

  it("returns an invalid call as a tool error naming the fields REST names", async () => {
    const input = minimalReceipt({ outcome: { status: "measured" }, evidence: [{ label: "x", url: "javascript:alert(1)" }] });
    const viaRest = await rest(serve.url, token, "POST", "/v1/receipts", input);
    const viaStdio = toolError(await stdio.client.callTool({ name: "receipt_create", arguments: input }));
    expect(viaRest.json.error.issues.map((i: any) => i.field)).toEqual(["outcome.summary", "evidence.0.url"]);
    expect(viaStdio.error.issues).toEqual(viaRest.json.error.issues);
    expect(viaStdio.error.drop.category).toBe(viaRest.json.error.drop.category);
  });

  it("passes protocol errors through unchanged", async () => {
    const viaStdio = await stdio.client.callTool({ name: "token_create", arguments: {} }).catch((e) => e);
    const viaHttp = await http.callTool({ name: "token_create", arguments: {} }).catch((e) => e);
    expect(viaStdio).toMatchObject({ code: -32602 });
    expect(viaStdio.message).toBe(viaHttp.message);
  });

  it("refuses a bad token with a plain message on stderr and a non-zero exit", async () => {
    const run = await runMcp({ CAIRN_URL: serve.url, CAIRN_TOKEN: "cairn_not_a_real_token" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the Cairn server at ${serve.url} refused the token (401)`);
    expect(run.stderr).not.toContain("cairn_not_a_real_token");
    expect(run.stdout).toBe("");
  });

  it("exits 0 when the MCP client closes its stdin", async () => {
    const run = await runMcp({ CAIRN_HOME: home }, (text, stdin) => {
      if (text.includes("serving MCP on stdio")) stdin.end();
    });
    expect(run).toMatchObject({ code: 0, stdout: "" });
  });

  it("says why a call fails when the server goes away mid-session (last: stops the server)", async () => {
    await serve.stop();
    const failure = await stdio.client.callTool({ name: "artifact_search", arguments: {} }).catch((e) => e);
    expect(failure).toMatchObject({ code: -32603, data: { error: { code: "internal" } } });
    expect(failure.message).toContain(`cannot reach the Cairn server at ${serve.url} (ECONNREFUSED)`);
    await expect.poll(() => stdio.stderr()).toContain(`cairn mcp: cannot reach the Cairn server at ${serve.url}`);
  });
});

describe("cairn mcp without a server", () => {
  it("says the server is unreachable, and where it looked", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const run = await runMcp({ CAIRN_URL: url, CAIRN_TOKEN: "cairn_x" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cannot reach the Cairn server at ${url} (ECONNREFUSED)`);
    expect(run.stdout).toBe("");
  });

  it("says how to get a token when there is none", async () => {
    const run = await runMcp({ CAIRN_HOME: "/nonexistent/cairn-home" });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain("no token: set CAIRN_TOKEN");
  });
});
