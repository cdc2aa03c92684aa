import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resolveSettings } from "@cairn/core/local";
import { ADAPTER_DRIVERS, minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../server.js";
import { type CliServer, cliUser, runCli, startCliServer } from "./cli-process.js";
import { homeFor } from "./serve-process.js";

describe.each(ADAPTER_DRIVERS)("cairn client commands against cairn serve on %s", (driver) => {
  let server: CliServer;
  beforeAll(async () => {
    server = await startCliServer(driver);
  });
  afterAll(async () => server?.stop());

  /** Receipts made straight through REST, oldest first, each tagged `tag`. */
  async function receipts(token: string, tag: string, n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      ids.push((await server.rest("POST", "/v1/receipts", token, minimalReceipt({ learned: `${tag} lesson ${i}`, tags: [tag] }))).json.id);
      await new Promise((r) => setTimeout(r, 2)); // ids order by millisecond
    }
    return ids;
  }

  it("read ID --json equals the REST object; the human view shows the facts and the body; a missing id exits 5", async () => {
    const u = await cliUser(server);
    const [id] = await receipts(u.token, "readme", 1);
    const rest = await server.rest("GET", `/v1/artifacts/${id}`, u.token);
    const json = await runCli(["read", id as string, "--json"], { env: u.env });
    expect(json.code, json.stderr).toBe(0);
    expect(json.json).toEqual(rest.json);
    const human = await runCli(["read", id as string], { env: u.env });
    expect(human.stdout).toContain(rest.json.checksum);
    expect(human.stdout).toContain(rest.json.body);
    const missing = await runCli(["read", "art_00000000000000000000000000", "--json"], { env: u.env });
    expect(missing.code).toBe(5);
    expect(missing.json.error.code).toBe("not_found");
  });

  it("search pages by tag with --limit and --cursor, and finds by words", async () => {
    const u = await cliUser(server);
    const ids = await receipts(u.token, "paged", 3);
    const first = await runCli(["search", "--tag", "paged", "--limit", "2", "--json"], { env: u.env });
    expect(first.json.items.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[1]]);
    const second = await runCli(["search", "--tag", "paged", "--limit", "2", "--cursor", first.json.next_cursor], { env: u.env });
    expect(second.stdout).toContain(ids[0]);
    expect(second.stdout).not.toContain(ids[1]);
    const words = await runCli(["search", "paged", "lesson", "1", "--json"], { env: u.env });
    expect(words.json.items.map((a: { id: string }) => a.id)).toContain(ids[1]);
    const bad = await runCli(["search", "--limit", "500"], { env: u.env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("limit: must be at most 200 (limit 200)");
  });

  it("export --tag writes the REST NDJSON stream to stdout and counts on stderr", async () => {
    const u = await cliUser(server);
    const ids = await receipts(u.token, "exported", 3);
    const r = await runCli(["export", "--tag", "exported"], { env: u.env });
    expect(r.code, r.stderr).toBe(0);
    const rest = await fetch(`${server.serve.url}/v1/export?tag=exported`, { headers: { authorization: `Bearer ${u.token}` } });
    expect(r.stdout).toBe(await rest.text());
    expect(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).id),
    ).toEqual([...ids].reverse());
    expect(r.stderr).toContain("Exported 3 artifacts.");
  });

  it("retain ID keeps a receipt; another user cannot (exit 5)", async () => {
    const u = await cliUser(server);
    const other = await cliUser(server);
    const [id] = await receipts(u.token, "keep", 1);
    const denied = await runCli(["retain", id as string], { env: other.env });
    expect(denied.code).toBe(5);
    const kept = await runCli(["retain", id as string, "--json"], { env: u.env });
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.json).toMatchObject({ id, retained: true, expires_at: null });
    expect((await runCli(["read", id as string], { env: u.env })).stdout).toContain("Retained: it does not expire.");
  });

  it("user create, token create and whoami; a non-admin cannot create users (exit 4)", async () => {
    const dana = await cliUser(server, "dana");
    const me = await runCli(["whoami", "--json"], { env: dana.env });
    expect(me.json).toEqual((await server.rest("GET", "/v1/me", dana.token)).json);
    expect(me.json.user.name).toBe(dana.name);

    const minted = await runCli(["token", "create", "nightly", "--kind", "agent"], { env: dana.env });
    expect(minted.code, minted.stderr).toBe(0);
    const agent = await runCli(["whoami"], { env: { ...server.env, CAIRN_TOKEN: minted.stdout.trim() } });
    expect(agent.stdout).toContain(`${dana.name}, with token "nightly" (agent)`);

    const forbidden = await runCli(["user", "create", "eve", "--json"], { env: dana.env });
    expect(forbidden.code).toBe(4);
    expect(forbidden.json.error.code).toBe("forbidden");
    const usage = await runCli(["token", "create", "x", "--kind", "robot"], { env: dana.env });
    expect(usage.code).toBe(2);
  });

  it("a bad token exits 4 with the REST error object; a server that is not there exits 3", async () => {
    const bad = await runCli(["whoami", "--json"], { env: { ...server.env, CAIRN_TOKEN: "cairn_not-a-real-token" } });
    expect(bad.code).toBe(4);
    expect(bad.json).toEqual({ error: { code: "unauthenticated", message: expect.any(String), request_id: expect.any(String) } });
    expect(bad.stderr).toContain("CAIRN_TOKEN");

    const elsewhere = await runCli(["whoami"], { env: { ...server.env, CAIRN_URL: "http://127.0.0.1:9" } });
    expect(elsewhere.code).toBe(4); // the credentials file's token is never sent to another server
    expect(elsewhere.stderr).toContain("Set CAIRN_TOKEN");
  });
});

describe.each(ADAPTER_DRIVERS)("cairn against a stopped cairn serve on %s", (driver) => {
  it("exits 3 with a message that says the server cannot be reached", async () => {
    const { env, home, dispose } = await homeFor(driver);
    try {
      const serve = await startServer(resolveSettings({ ...env, PORT: "0", HOST: "127.0.0.1" }), { info: () => {} }, "test");
      await serve.close();
      const { url } = JSON.parse(readFileSync(join(home, "credentials"), "utf8"));
      const r = await runCli(["receipt", "--from", "examples/receipt.json", "--json"], { env: { CAIRN_HOME: home } });
      expect(r.code).toBe(3);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`cannot reach Cairn at ${url} (connection refused)`);
    } finally {
      await dispose();
    }
  });
});
