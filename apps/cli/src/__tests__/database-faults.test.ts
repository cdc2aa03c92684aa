import { createTestDatabase, minimalReceipt } from "@cairn/core/testing";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli-process.js";
import { adminTokenIn } from "./mcp-harness.js";
import { type DatabaseProxy, startDatabaseProxy } from "./db-proxy.js";
import { CLI_BIN, type ServeProcess, spawnServe } from "./serve-process.js";

const drivers = (process.env.CAIRN_TEST_DRIVERS ?? "pglite,pg").split(",").map((d) => d.trim());

/** Status, code and how long one request took (ms). */
async function timed(url: string, init: RequestInit = {}): Promise<{ status: number; body: any; ms: number; headers: Headers }> {
  const started = performance.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, ms: performance.now() - started, headers: res.headers };
}

// A real PostgreSQL behind a loopback relay the test can make stuck (accepts, never answers) or down (port closed).
describe.runIf(drivers.includes("pg"))("cairn serve when PostgreSQL is stuck or down", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let proxy: DatabaseProxy;
  let serve: ServeProcess;
  let home: string;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase("pg");
    proxy = await startDatabaseProxy(db.databaseUrl as string);
    home = await mkdtemp(join(tmpdir(), "cairn-home-faults-"));
    serve = await spawnServe({
      CAIRN_HOME: home,
      DATABASE_URL: proxy.url,
      CAIRN_DB_CONNECT_TIMEOUT_MS: "1000",
      CAIRN_DB_STATEMENT_TIMEOUT_MS: "1500",
    });
    token = adminTokenIn(home);
  });
  afterAll(async () => {
    await serve?.stop();
    await proxy?.close();
    await db?.dispose();
    await rm(home, { recursive: true, force: true });
  });

  const auth = () => ({ authorization: `Bearer ${token}` });
  const cli = (args: string[]) => runCli(args, { env: { CAIRN_HOME: home } });

  /** Every surface says 503 `unavailable` within a few seconds, and the CLI exits 3. */
  async function expectUnavailable() {
    for (const [path, init] of [
      ["/v1/me", { headers: auth() }],
      ["/v1/artifacts?q=x", { headers: auth() }],
      ["/v1/receipts", { method: "POST", headers: { ...auth(), "content-type": "application/json" }, body: JSON.stringify(minimalReceipt()) }],
      ["/mcp", { method: "POST", headers: { ...auth(), "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) }],
    ] as const) {
      const r = await timed(`${serve.url}${path}`, init as RequestInit);
      expect([path, r.status, r.body?.error?.code]).toEqual([path, 503, "unavailable"]);
      expect(r.ms).toBeLessThan(5_000);
      expect(r.headers.get("retry-after")).toBe("5");
    }
    const page = await timed(`${serve.url}/s/not-a-real-share-token`);
    expect([page.status, page.ms < 5_000]).toEqual([503, true]);
    const health = await timed(`${serve.url}/healthz`);
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: "fail", database: "unreachable" });
    expect(health.ms).toBeLessThan(3_000);
    const whoami = await cli(["whoami"]);
    expect(whoami.code, whoami.stderr).toBe(3);
    expect(whoami.stderr).toContain("cannot reach its database");
    const doctor = await cli(["doctor", "--json"]);
    expect(doctor.code).toBe(3);
    expect(doctor.json.error.code).toBe("unavailable");
  }

  async function expectHealthy() {
    await expect
      .poll(async () => (await timed(`${serve.url}/healthz`)).status, { timeout: 15_000, interval: 250 })
      .toBe(200);
    expect((await timed(`${serve.url}/v1/me`, { headers: auth() })).status).toBe(200);
    const doctor = await cli(["doctor", "--json"]);
    expect(doctor.json.checks[0]).toMatchObject({ name: "Database", status: "ok" });
  }

  it("answers normally through the relay", expectHealthy);

  it("a live `cairn mcp` session gets an `unavailable` tool error while the database is down", async () => {
    const client = new Client({ name: "t", version: "1" });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, "mcp"], env: { PATH: process.env.PATH ?? "", CAIRN_HOME: home }, stderr: "pipe" }),
    );
    try {
      await proxy.set("down");
      const result = (await client.callTool({ name: "artifact_search", arguments: {} })) as { isError?: boolean; content: Array<{ text: string }> };
      expect(result.isError).toBe(true);
      expect(JSON.parse(result.content[0]?.text ?? "{}").error.code).toBe("unavailable");
    } finally {
      await proxy.set("pass");
      await client.close();
    }
  }, 60_000);

  it("stuck: every route answers 503 unavailable within seconds, never hangs; then recovers", async () => {
    await proxy.set("stuck");
    await expectUnavailable();
    await proxy.set("pass");
    await expectHealthy();
  }, 90_000);

  it("down: every route answers 503 unavailable at once; then recovers", async () => {
    await proxy.set("down");
    await expectUnavailable();
    await proxy.set("pass");
    await expectHealthy();
  }, 90_000);

  it("logged the outage by code only, never a query or a token", () => {
    const log = serve.output();
    expect(log).toContain("cairn warn database_unavailable");
    expect(log).not.toContain(token);
    expect(log).not.toMatch(/select |insert into/i);
  });
});
