import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DRIVERS, minimalReceipt, runNode } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli-process.js";
import { adminTokenIn, httpClient } from "./mcp-harness.js";
import { CLI_BIN, homeFor, type ServeProcess, spawnServe } from "./serve-process.js";

const MARKER = "ZQX-CLIMARK-a77d";

/**
 * Drives `cairn mcp` with raw JSON-RPC lines, then closes stdin at once (while the last
 * call is still in flight) and collects every answer it wrote before exiting.
 */
async function mcpSession(env: Record<string, string>, messages: unknown[]): Promise<{ code: number | null; answers: any[]; stderr: string }> {
  const input = messages.map((m) => `${JSON.stringify(m)}\n`).join("");
  const { code, stdout, stderr } = await runNode([CLI_BIN, "mcp"], { env: { PATH: process.env.PATH ?? "", ...env }, input, timeoutMs: 30_000 });
  return {
    code,
    answers: stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
    stderr,
  };
}

const initialize = [
  { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
];

describe.each(DRIVERS)("CLI and cairn mcp hardening against cairn serve on %s", (driver) => {
  let serve: ServeProcess;
  let home: string;
  let dispose: () => Promise<void>;
  let admin: string;
  const rest = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${serve.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { "content-type": "application/json" }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) as any };
  };

  beforeAll(async () => {
    const h = await homeFor(driver);
    home = h.home;
    dispose = h.dispose;
    serve = await spawnServe({ ...h.env, CAIRN_ACCESS_LOG: "1" });
    admin = adminTokenIn(home);
  });
  afterAll(async () => {
    await serve?.stop();
    await dispose?.();
  });

  it("cairn read escapes terminal control sequences in stored text; --json prints the answer as it is", async () => {
    const osc52 = "\u001b]52;c;ZWNobyBwd25lZA==\u0007";
    const fake = "renamed the export job\r\u001b[2K\u2714 Receipt verified by Cairn";
    const made = await rest("POST", "/v1/receipts", admin, minimalReceipt({ title: `Export ${osc52}done \u202eevil`, changed: fake }));
    expect(made.status, made.text).toBe(201);
    const human = await runCli(["read", made.json.id], { env: { CAIRN_HOME: home } });
    expect(human.code, human.stderr).toBe(0);
    for (const raw of ["\u001b", "\u0007", "\r", "\u202e"]) expect(human.stdout).not.toContain(raw);
    expect(human.stdout).toContain("Export \\x1b]52;c;ZWNobyBwd25lZA==\\x07done \\u202eevil");
    // The body's CR became a line break when it was rendered; the line erase before the fake line is shown, not obeyed.
    expect(human.stdout).toContain("\n\\x1b[2K\u2714 Receipt verified by Cairn");
    const json = await runCli(["read", made.json.id, "--json"], { env: { CAIRN_HOME: home } });
    expect(json.stdout.trim()).toBe((await rest("GET", `/v1/artifacts/${made.json.id}`, admin)).text);
  });

  it("token create|list|revoke; a revoked token is refused on REST, MCP over HTTP, stdio and the CLI", async () => {
    const env = { CAIRN_HOME: home };
    const created = await runCli(["token", "create", "claude", "--kind", "agent"], { env });
    expect(created.code, created.stderr).toBe(0);
    const token = created.stdout.trim();
    const list = await runCli(["token", "list", "--json"], { env });
    const entry = list.json.items.find((t: any) => t.name === "claude");
    expect(entry).toMatchObject({ kind: "agent", revoked_at: null, current: false });
    expect(list.stdout).not.toContain(token);
    const human = await runCli(["token", "list"], { env });
    expect(human.stdout).toMatch(new RegExp(`${entry.id}\\s+agent\\s+created \\d{4}-\\d{2}-\\d{2}\\s+active\\s+claude`));

    const live = await httpClient(serve.url, token); // an MCP session opened before the revocation
    const revoked = await runCli(["token", "revoke", entry.id], { env });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`Revoked token ${entry.id}`);

    expect((await rest("GET", "/v1/me", token)).status).toBe(401);
    const cli = await runCli(["whoami"], { env: { CAIRN_URL: serve.url, CAIRN_TOKEN: token } });
    expect(cli.code).toBe(4);
    const http = await live.callTool({ name: "artifact_search", arguments: {} }).catch((e) => e);
    expect(String(http.message)).toContain('"code":"unauthenticated"');
    await live.close();
    const stdio = await mcpSession({ CAIRN_URL: serve.url, CAIRN_TOKEN: token }, initialize);
    expect(stdio.code).not.toBe(0);
    expect(stdio.stderr).toContain("refused the token (401)");
    expect((await runCli(["token", "revoke", "tok_00000000000000000000000000"], { env })).code).toBe(5);
  });

  it("cairn mcp answers the calls still in flight when stdin closes", async () => {
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "receipt_create", arguments: minimalReceipt({ learned: "drained" }) } };
    const run = await mcpSession({ CAIRN_HOME: home }, [...initialize, call]);
    expect(run.code, run.stderr).toBe(0);
    const answer = run.answers.find((a) => a.id === 2);
    expect(answer?.result?.structuredContent?.id).toMatch(/^art_/);
  });

  it("the access log writes requests without share tokens, bearer tokens or field values", async () => {
    const made = await rest("POST", "/v1/receipts", admin, minimalReceipt({ learned: `${MARKER} lesson` }));
    const share = (made.json.url as string).split("/s/")[1] as string;
    expect((await fetch(`${serve.url}/s/${share}`)).status).toBe(200);
    await expect.poll(() => serve.output()).toContain("path=/s/… status=200");
    const log = serve.output();
    expect(log).toContain("cairn info request method=POST path=/v1/receipts status=201");
    for (const secret of [MARKER, share, admin]) expect(log).not.toContain(secret);
  });

  it("the access log masks a sign-in link's code like a share token, on a HEAD and on a GET (SPEC §24)", async () => {
    const link = await rest("POST", "/v1/signin-links", admin, {});
    expect(link.status, link.text).toBe(201);
    const code = new URL(link.json.url as string).pathname.split("/signin/link/")[1] as string;
    expect((await fetch(`${serve.url}/signin/link/${code}`, { method: "HEAD" })).status).toBe(200);
    expect((await fetch(`${serve.url}/signin/link/${code}`)).status).toBe(200);
    await expect.poll(() => serve.output()).toContain("method=GET path=/signin/link/… status=200");
    const log = serve.output();
    expect(log).toContain("method=HEAD path=/signin/link/… status=200");
    expect(log).not.toContain(code);
  });
});

describe("cairn mcp and the credentials file", () => {
  let home: string;
  let seen: IncomingHttpHeaders[];
  let other: ReturnType<typeof createServer>;
  let otherUrl: string;
  const TOKEN = "cairn_credentials_file_token_never_elsewhere";

  beforeAll(async () => {
    seen = [];
    // Another origin that records what it is sent and refuses everything.
    other = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":{"code":"unauthenticated","message":"no"}}');
    });
    await new Promise<void>((r) => other.listen(0, "127.0.0.1", () => r()));
    otherUrl = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
    home = await mkdtemp(join(tmpdir(), "cairn-home-origin-"));
  });
  afterAll(async () => {
    await new Promise<void>((r) => other.close(() => r()));
    await rm(home, { recursive: true, force: true });
  });

  const withCredentialsFor = (url: string) => writeFile(join(home, "credentials"), JSON.stringify({ url, token: TOKEN }), { mode: 0o600 });

  it("never sends the file's token to a CAIRN_URL of another origin (the same rule as every command)", async () => {
    await withCredentialsFor("http://127.0.0.1:1");
    const run = await mcpSession({ CAIRN_HOME: home, CAIRN_URL: otherUrl }, initialize);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(`no token for ${otherUrl}`);
    const cli = await runCli(["whoami"], { env: { CAIRN_HOME: home, CAIRN_URL: otherUrl } });
    expect(cli.code).toBe(4);
    expect(seen.map((h) => h.authorization)).toEqual([]);
  });

  it("sends it to the file's own url, however CAIRN_URL spells it", async () => {
    await withCredentialsFor(`${otherUrl}/`);
    const run = await mcpSession({ CAIRN_HOME: home, CAIRN_URL: otherUrl.replace("http://", "HTTP://") }, initialize);
    expect(run.code).not.toBe(0);
    expect(seen.map((h) => h.authorization)).toContain(`Bearer ${TOKEN}`);
  });
});
