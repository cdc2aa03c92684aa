import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProgram } from "../program.js";
import { quickLineOf } from "../quick-line.js";
import { type CliServer, cliUser, EXAMPLE_JSON, runCli, startCliServer } from "./cli-process.js";

/**
 * `cairn read ID` skips the program (quick.ts, docs/adr/0067). Each line here runs both
 * ways, through `main` as the binary does and through the program as every other command
 * does, against one server: what a person or script sees must not depend on the path.
 */
describe("cairn read ID: the quick path and the program answer alike", () => {
  let server: CliServer;
  beforeAll(async () => {
    server = await startCliServer("pglite");
  });
  afterAll(async () => server?.stop());

  const bothWays = async (args: string[], env: Record<string, string>) => {
    const [quick, program] = [await runCli(args, { env }), await runCli(args, { env, entry: runProgram })];
    // Each request has its own id; the rest must match to the byte.
    const seen = (r: typeof quick) => ({ code: r.code, stdout: r.stdout.replace(/"request_id":"[^"]+"/g, '"request_id":"…"'), stderr: r.stderr });
    expect(seen(quick), args.join(" ")).toEqual(seen(program));
    return quick;
  };

  it("an id, with and without --json, before or after it; a missing id; another user's id; a refused token; no token; a server that is not there", async () => {
    const owner = await cliUser(server, "quick-owner");
    const stranger = await cliUser(server, "quick-stranger");
    const made = await runCli(["receipt", "--from", EXAMPLE_JSON, "--json"], { env: owner.env });
    expect(made.code, made.stderr).toBe(0);
    const id: string = made.json.id;

    const human = await bothWays(["read", id], owner.env);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(made.json.checksum);
    expect((await bothWays(["read", id, "--json"], owner.env)).json.id).toBe(id);
    expect((await bothWays(["read", "--json", id], owner.env)).json.id).toBe(id);
    expect((await bothWays(["read", "art_00000000000000000000000000"], owner.env)).code).toBe(5);
    expect((await bothWays(["read", "art_00000000000000000000000000", "--json"], owner.env)).json.error.code).toBe("not_found");
    expect((await bothWays(["read", id], stranger.env)).code).toBe(5);
    expect((await bothWays(["read", id], { ...owner.env, CAIRN_TOKEN: "cairn_not-a-token" })).code).toBe(4);
    const noHome = { CAIRN_HOME: mkdtempSync(join(tmpdir(), "cairn-nohome-")) };
    expect((await bothWays(["read", id], noHome)).code).toBe(4);
    expect((await bothWays(["read", id, "--json"], { ...noHome, CAIRN_URL: "http://127.0.0.1:9", CAIRN_TOKEN: "cairn_x" })).code).toBe(3);
  });

  it("a share link, read as its holder with no token, and a wrong one", async () => {
    const made = await runCli(["receipt", "--from", EXAMPLE_JSON, "--json"], { env: server.env });
    const holder = { CAIRN_HOME: mkdtempSync(join(tmpdir(), "cairn-nohome-")) };
    expect((await bothWays(["read", made.json.url], holder)).stdout).toContain(made.json.title);
    expect((await bothWays(["read", made.json.url, "--json"], holder)).json.id).toBe(made.json.id);
    expect((await bothWays(["read", made.json.url.replace(/\/s\/.*/, "/s/not-a-real-share-token-at-all-000000000000")], holder)).code).toBe(5);
  });

  it("only the exact spellings are quick; help, other flags, extra words and dash-led or empty ids go to the program", () => {
    expect(quickLineOf(["read", "art_1"])).toEqual({ id: "art_1", json: false });
    expect(quickLineOf(["read", "art_1", "--json"])).toEqual({ id: "art_1", json: true });
    expect(quickLineOf(["read", "--json", "art_1"])).toEqual({ id: "art_1", json: true });
    for (const argv of [
      ["read"],
      ["read", "--json"],
      ["read", "--help"],
      ["read", "art_1", "-h"],
      ["read", "art_1", "--json", "--json"],
      ["read", "art_1", "art_2"],
      ["read", "art_1", "--nope"],
      ["read", ""],
      ["read", "-x"],
      ["search", "art_1"],
      ["--json", "read", "art_1"],
    ]) {
      expect(quickLineOf(argv), argv.join(" ")).toBeNull();
    }
  });
});
