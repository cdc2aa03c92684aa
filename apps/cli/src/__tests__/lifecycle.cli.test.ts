import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliServer, cliUser, runCli, startCliServer } from "./cli-process.js";

// One server on the embedded store: the surface is what is tested here; storage is tested in core on both.
describe("cairn search filters, export --format in-toto, keys and verify", () => {
  let server: CliServer;
  let user: Awaited<ReturnType<typeof cliUser>>;
  const dir = mkdtempSync(join(tmpdir(), "cairn-verify-"));
  beforeAll(async () => {
    server = await startCliServer("pglite");
    user = await cliUser(server, "ver");
    for (const [learned, human_action] of [
      ["first audited", "Approve it"],
      ["second audited", undefined],
    ] as const) {
      const body = minimalReceipt({ learned, tags: ["audit"], ...(human_action && { human_action }) });
      expect((await server.rest("POST", "/v1/receipts", user.token, body)).status).toBe(201);
    }
  }, 60_000);
  afterAll(async () => server?.stop());

  it("receipt --expires-in shortens its life and says so", async () => {
    const file = join(dir, "short.json");
    writeFileSync(file, JSON.stringify(minimalReceipt({ learned: "short lived cli" })));
    const made = await runCli(["receipt", "--from", file, "--expires-in", "600"], { env: user.env });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain("Expires in 10 minutes");
    const tooLong = await runCli(["receipt", "--from", file, "--expires-in", "999999999", "--json"], { env: user.env });
    expect(tooLong.code).toBe(1);
    expect(tooLong.json.error.issues[0].field).toBe("expires_in");
  });

  it("search takes the filters as flags", async () => {
    const found = await runCli(["search", "--human-action", "needed", "--tag", "audit", "--fields", "summary", "--json"], { env: user.env });
    expect(found.code, found.stderr).toBe(0);
    expect(found.json.items).toHaveLength(1);
    expect(found.json.items[0]).not.toHaveProperty("body");
    const bad = await runCli(["search", "--outcome", "late"], { env: user.env });
    expect(bad.code).not.toBe(0);
  });

  it("exports in-toto lines that verify on the server, and offline with --keys after the server is gone", async () => {
    const exported = await runCli(["export", "--format", "in-toto", "--tag", "audit"], { env: user.env });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain("Exported 2");
    const file = join(dir, "audit.intoto.jsonl");
    writeFileSync(file, exported.stdout);
    const lines = exported.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0] ?? "").payloadType).toBe("application/vnd.in-toto+json");

    const online = await runCli(["verify", file], { env: user.env });
    expect(online.code, online.stderr).toBe(0);
    expect(online.stderr).toContain("2 ok, 0 failed");

    const id = JSON.parse(Buffer.from(JSON.parse(lines[0] ?? "").payload, "base64").toString()).subject[0].name.slice("cairn:".length);
    const byId = await runCli(["verify", id, "--json"], { env: user.env });
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.json).toMatchObject({ valid: true, id });

    const keys = await runCli(["keys", "list", "--json"], { env: user.env });
    expect(keys.code).toBe(0);
    const keysFile = join(dir, "keys.json");
    writeFileSync(keysFile, keys.stdout);

    const envelope = JSON.parse(lines[1] ?? "");
    const statement = JSON.parse(Buffer.from(envelope.payload, "base64").toString());
    statement.predicate.title = "A different title";
    const tamperedFile = join(dir, "tampered.jsonl");
    writeFileSync(tamperedFile, `${lines[0]}\n${JSON.stringify({ ...envelope, payload: Buffer.from(JSON.stringify(statement)).toString("base64") })}\n`);

    // Offline: nothing listens at this address, and the checks still run.
    const offline = { CAIRN_URL: "http://127.0.0.1:9", CAIRN_TOKEN: "cairn_unused" };
    const ok = await runCli(["verify", file, "--keys", keysFile], { env: offline });
    expect(ok.code, ok.stderr).toBe(0);
    expect(
      ok.stdout
        .trim()
        .split("\n")
        .every((l) => l.startsWith("ok")),
    ).toBe(true);
    const bad = await runCli(["verify", tamperedFile, "--keys", keysFile], { env: offline });
    expect(bad.code).toBe(8);
    expect(bad.stdout).toContain("signature:");
    const fromStdin = await runCli(["verify", "-", "--keys", keysFile, "--json"], { env: offline, input: readFileSync(tamperedFile, "utf8") });
    expect(fromStdin.code).toBe(8);
    expect(
      fromStdin.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).failed),
    ).toEqual([null, "signature"]);
  });

  it("keys rotate is for administrators; the old public key stays listed", async () => {
    const before = (await runCli(["keys", "list", "--json"], { env: user.env })).json.keys;
    const denied = await runCli(["keys", "rotate"], { env: user.env });
    expect(denied.code).toBe(4);
    const rotated = await runCli(["keys", "rotate", "--json"], { env: server.env });
    expect(rotated.code, rotated.stderr).toBe(0);
    const after = (await runCli(["keys", "list", "--json"], { env: user.env })).json.keys;
    expect(after.map((k: { kid: string }) => k.kid)).toEqual([rotated.json.kid, ...before.map((k: { kid: string }) => k.kid)]);
  });
});
