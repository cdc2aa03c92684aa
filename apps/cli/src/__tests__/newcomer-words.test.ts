import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveSettings } from "@cairn/core/local";
import { minimalReceipt } from "@cairn/core/testing";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../server.js";
import { runCli } from "./cli-process.js";
import { httpClient, type InProcessServer, rest, startInProcess, toolError } from "./mcp-harness.js";
import { CLI_BIN, homeFor } from "./serve-process.js";

/**
 * SPEC §22, "words a newcomer meets": each case on REST, MCP and the CLI, against one
 * running server (adapter tests: the embedded store).
 */
const misspelt = { ...minimalReceipt({ human_action: undefined }), human_actoin: "Nothing" };
const missingDay = minimalReceipt({ outcome: { status: "pending", measure_at: "2026-02-30" } });
const BROKEN_JSON = '{\n  "changed": "Retries failed uploads three times"\n  "learned": "nothing new"\n}';
const BROKEN_AT = "at line 3, column 3";

/** One message to `cairn mcp` on stdio, and its one answer. */
async function stdioAnswer(url: string, token: string, line: string): Promise<any> {
  const child = spawn(process.execPath, [CLI_BIN, "mcp"], {
    env: { PATH: process.env.PATH ?? "", CAIRN_URL: url, CAIRN_TOKEN: token, CAIRN_HOME: "/nonexistent/cairn-home" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  const answer = new Promise<any>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer: ${out}`)), 20_000);
    child.stdout.on("data", (d) => {
      out += d;
      const first = out.split("\n")[0];
      if (out.includes("\n") && first) {
        clearTimeout(timer);
        resolve(JSON.parse(first));
      }
    });
  });
  child.stdin.write(`${line}\n`);
  try {
    return await answer;
  } finally {
    child.stdin.end();
    if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
  }
}

describe("the words a newcomer meets, on every surface", () => {
  let server: InProcessServer;
  let mcp: Client;
  let dir: string;
  const cliEnv = () => ({ CAIRN_URL: server.url, CAIRN_TOKEN: server.token, CAIRN_HOME: "/nonexistent/cairn-home" });
  const file = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  beforeAll(async () => {
    server = await startInProcess("pglite");
    mcp = await httpClient(server.url, server.token);
    dir = await mkdtemp(join(tmpdir(), "cairn-words-"));
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("an unknown field names the nearest known one: REST, MCP and the CLI (and its --dry-run) alike", async () => {
    const expected = { field: "human_actoin", reason: "is not a known field; did you mean human_action?" };
    const viaRest = await rest(server.url, server.token, "POST", "/v1/receipts", misspelt);
    expect(viaRest.status).toBe(422);
    expect(viaRest.json.error.issues).toContainEqual(expected);
    const viaMcp = toolError(await mcp.callTool({ name: "receipt_create", arguments: misspelt }));
    expect(viaMcp.error.issues).toEqual(viaRest.json.error.issues);
    const path = await file("misspelt.json", JSON.stringify(misspelt));
    for (const args of [
      ["receipt", "--from", path],
      ["receipt", "--dry-run", "--from", path],
    ]) {
      const viaCli = await runCli(args, { env: cliEnv() });
      expect(viaCli.code, args.join(" ")).toBe(1);
      expect(viaCli.stderr).toContain("  human_actoin: is not a known field; did you mean human_action?");
    }
  });

  it("an impossible date says the day does not exist, nowhere that it is not ISO 8601", async () => {
    const expected = { field: "outcome.measure_at", reason: "2026-02-30 is not a day in the calendar" };
    const viaRest = await rest(server.url, server.token, "POST", "/v1/receipts", missingDay);
    expect(viaRest.json.error.issues).toEqual([expected]);
    const viaMcp = toolError(await mcp.callTool({ name: "receipt_create", arguments: missingDay }));
    expect(viaMcp.error.issues).toEqual([expected]);
    const viaCli = await runCli(["receipt", "--from", await file("day.json", JSON.stringify(missingDay))], { env: cliEnv() });
    expect(viaCli.code).toBe(1);
    expect(viaCli.stderr).toContain("  outcome.measure_at: 2026-02-30 is not a day in the calendar");
    for (const text of [viaRest.text, JSON.stringify(viaMcp), viaCli.stderr]) expect(text).not.toContain("ISO 8601 date (2026-12-01)");
  });

  it("malformed JSON says where it breaks and nothing about dates: REST 422, MCP over HTTP and stdio, the CLI", async () => {
    const res = await fetch(`${server.url}/v1/receipts`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
      body: BROKEN_JSON,
    });
    const body = (await res.json()) as any;
    expect(res.status).toBe(422);
    expect(body.error.issues).toEqual([{ field: "(input)", reason: `is not valid JSON: Expected ',' or '}' after property value ${BROKEN_AT}` }]);
    expect(body.error.drop).toMatchObject({ category: "invalid", cause: "The submission could not be read: it is not valid JSON." });
    expect(body.error.drop.next_action).toBe("Fix the syntax at the line and column the error names and POST /v1/receipts again.");
    for (const words of [body.error.message, body.error.drop.cause, body.error.drop.next_action]) expect(words).not.toMatch(/\bdates?\b|2026-12-01/);

    const overHttp = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: BROKEN_JSON,
    });
    expect(overHttp.status).toBe(400);
    expect(await overHttp.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: `Parse error: the request body is not valid JSON: Expected ',' or '}' after property value ${BROKEN_AT}` },
    });
    const overStdio = await stdioAnswer(server.url, server.token, '{"jsonrpc": "2.0", "id": 1 "method": "ping"}');
    expect(overStdio).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error: the message is not valid JSON: Expected ',' or '}' after property value at line 1, column 28" },
    });

    const viaCli = await runCli(["receipt", "--from", await file("broken.json", BROKEN_JSON)], { env: cliEnv() });
    expect(viaCli.code).toBe(1);
    expect(viaCli.stderr).toBe(`cairn: rejected (validation_failed):\n  (input): is not valid JSON: Expected ',' or '}' after property value ${BROKEN_AT}\n`);
  });

  it("next steps name the server's real URL, never $CAIRN_URL", async () => {
    const viaCli = await runCli(["receipt", "--from", await file("thin.json", JSON.stringify(minimalReceipt({ learned: undefined })))], { env: cliEnv() });
    expect(viaCli.stderr).toContain(`and ${server.url}/v1/schemas/cairn.receipt/v1 documents every field.`);
    const listed = await runCli(["drops", "--json"], { env: cliEnv() });
    const viaRest = await rest(server.url, server.token, "GET", "/v1/drops");
    const viaMcp = await mcp.callTool({ name: "drops_list", arguments: {} });
    for (const text of [viaCli.stderr, listed.stdout, viaRest.text, JSON.stringify(viaMcp)]) {
      expect(text.length).toBeGreaterThan(50);
      expect(text).not.toContain("$CAIRN_URL");
    }
    expect(listed.stdout).toContain(`${server.url}/v1/schemas/cairn.receipt/v1`);
  });

  it("the administrator's first token is called admin wherever it acts", async () => {
    const me = await rest(server.url, server.token, "GET", "/v1/me");
    expect(me.json.token.name).toBe("admin");
    const viaMcp: any = await mcp.callTool({ name: "receipt_create", arguments: minimalReceipt({ learned: "who wrote this" }) });
    expect(viaMcp.structuredContent.provenance.actor).toMatchObject({ name: "admin", kind: "human" });
    const whoami = await runCli(["whoami"], { env: cliEnv() });
    expect(whoami.stdout).toContain('with token "admin" (human)');
    expect(whoami.stdout).not.toContain("cairn-serve");
  });

  it("cairn token list shows when each token was created, and verify without a token points at --keys", async () => {
    const listed = await runCli(["token", "list"], { env: cliEnv() });
    const today = new Date().toISOString().slice(0, 10);
    expect(listed.stdout).toMatch(new RegExp(`^tok_\\w+  human  created ${today}  active\\s+admin  \\(this token\\)$`, "m"));
    const exported = await file("export.jsonl", '{"payloadType":"x"}\n');
    const noToken = await runCli(["verify", exported], { env: { CAIRN_HOME: join(dir, "nobody") } });
    expect(noToken.code).toBe(4);
    expect(noToken.stderr).toContain("hint: an exported file verifies offline with --keys FILE");
  });
});

describe("the administrator names the first token", () => {
  it("with CAIRN_ADMIN_TOKEN_NAME, and a name it cannot take stops serve before anything is created", async () => {
    const { env, home, dispose } = await homeFor("pglite");
    try {
      await expect(
        startServer(resolveSettings({ ...env, PORT: "0", HOST: "127.0.0.1", CAIRN_ADMIN_TOKEN_NAME: "x".repeat(101) }), { info: () => {} }, "test"),
      ).rejects.toThrow(/^CAIRN_ADMIN_TOKEN_NAME is longer than 100 characters/);
      const serve = await startServer(
        resolveSettings({ ...env, PORT: "0", HOST: "127.0.0.1", CAIRN_ADMIN_TOKEN_NAME: "sam-laptop" }),
        { info: () => {} },
        "test",
      );
      try {
        const whoami = await runCli(["whoami"], { env: { CAIRN_HOME: home } });
        expect(whoami.stdout).toContain('admin (administrator), with token "sam-laptop" (human)');
      } finally {
        await serve.close();
      }
    } finally {
      await dispose();
    }
  });
});
