import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase } from "@cairn/core/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseProxy, startDatabaseProxy } from "./db-proxy.js";
import { adminTokenIn } from "./mcp-harness.js";
import { CLI_BIN, type ServeProcess, spawnServe } from "./serve-process.js";
import { expectEverySurfaceHealthy, expectEverySurfaceUnavailable } from "./unavailable-surfaces.js";

const drivers = (process.env.CAIRN_TEST_DRIVERS ?? "pglite,pg").split(",").map((d) => d.trim());

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

  const expectUnavailable = () => expectEverySurfaceUnavailable(serve.url, home, token);
  const expectHealthy = () => expectEverySurfaceHealthy(serve.url, home, token);

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

  it("down: 300 requests that answer 503 log one line per kind, without stacks, then the count of the others", async () => {
    const before = serve.output().length;
    await proxy.set("down");
    try {
      for (let round = 0; round < 10; round++) {
        const statuses = await Promise.all(
          Array.from({ length: 30 }, () => fetch(`${serve.url}/v1/artifacts`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status)),
        );
        expect(new Set(statuses)).toEqual(new Set([503]));
      }
      const outage = () => serve.output().slice(before).split("\n");
      const lines = outage().filter((l) => l.includes("database_unavailable") && l.includes("surface=rest"));
      // One per kind: the pool's refusals can come as a refused connection or a timeout, never one per request.
      expect(lines.length, lines.join("\n")).toBeLessThanOrEqual(3);
      expect(outage().filter((l, i, all) => /^\s+at /.test(l) || /^\s+at /.test(all[i + 1] ?? ""))).toEqual([]);
      // When an interval ends, one line counts the requests it did not log: every request is accounted for.
      const deadline = Date.now() + 25_000;
      const accounted = () =>
        outage().reduce((n, l) => {
          if (!l.includes("database_unavailable") || !l.includes("surface=rest")) return n;
          const suppressed = /suppressed=(\d+)/.exec(l)?.[1];
          return n + (suppressed === undefined ? 1 : Number(suppressed));
        }, 0);
      while (accounted() < 300 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(accounted()).toBeGreaterThanOrEqual(300);
    } finally {
      await proxy.set("pass");
    }
    await expectHealthy();
  }, 90_000);

  it("logged the outage by code only, never a query or a token", () => {
    const log = serve.output();
    expect(log).toContain("cairn warn database_unavailable");
    expect(log).not.toContain(token);
    expect(log).not.toMatch(/select |insert into/i);
  });
});
