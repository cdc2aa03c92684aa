import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADAPTER_DRIVERS, minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliServer, cliUser, EXAMPLE_JSON, EXAMPLE_YAML, runCli, startCliServer } from "./cli-process.js";

const scratch = mkdtempSync(join(tmpdir(), "cairn-cli-receipt-"));
function file(name: string, content: string): string {
  const path = join(scratch, name);
  writeFileSync(path, content);
  return path;
}

describe.each(ADAPTER_DRIVERS)("cairn receipt against cairn serve on %s", (driver) => {
  let server: CliServer;
  beforeAll(async () => {
    server = await startCliServer(driver);
  });
  afterAll(async () => server?.stop());

  it("JSON, YAML and stdin create the same receipt; the same owner's repeat is the duplicate of the first", async () => {
    const [a, b, c] = [await cliUser(server), await cliUser(server), await cliUser(server)];
    const fromJson = await runCli(["receipt", "--from", EXAMPLE_JSON, "--json"], { env: a.env });
    const fromYaml = await runCli(["receipt", "--from", EXAMPLE_YAML, "--json"], { env: b.env });
    const fromStdin = await runCli(["receipt", "--from", "-", "--json"], { env: c.env, input: readFileSync(EXAMPLE_YAML, "utf8") });
    for (const r of [fromJson, fromYaml, fromStdin]) expect(r.code, r.stderr).toBe(0);
    expect(fromYaml.json.checksum).toBe(fromJson.json.checksum);
    expect(fromStdin.json.checksum).toBe(fromJson.json.checksum);
    expect(fromYaml.json.metadata).toEqual(fromJson.json.metadata);
    expect([fromJson, fromYaml, fromStdin].map((r) => r.json.owner)).toEqual([`user:${a.name}`, `user:${b.name}`, `user:${c.name}`]);

    const again = await runCli(["receipt", "--from", "-", "--json"], { env: a.env, input: readFileSync(EXAMPLE_JSON, "utf8") });
    expect(again.code).toBe(6);
    expect(again.json.error.code).toBe("duplicate");
    expect(again.json.error.existing.id).toBe(fromJson.json.id);
    const human = await runCli(["receipt", "--from", EXAMPLE_YAML], { env: a.env });
    expect(human.code).toBe(6);
    expect(human.stderr).toContain(fromJson.json.id);
  });

  it("prints url, id, checksum and the 7-day reminder; --json is the artifact exactly as REST returns it", async () => {
    const u = await cliUser(server);
    const made = await runCli(["receipt", "--from", file("r1.json", JSON.stringify(minimalReceipt({ learned: "human output" })))], { env: u.env });
    expect(made.code, made.stderr).toBe(0);
    const id = /id\s+(art_\w+)/.exec(made.stdout)?.[1] as string;
    const read = await server.rest("GET", `/v1/artifacts/${id}`, u.token);
    expect(made.stdout).toContain(read.json.url);
    expect(made.stdout).toContain(read.json.checksum);
    expect(made.stdout).toContain(`Expires in 7 days`);
    expect(made.stdout).toContain(`cairn retain ${id}`);
    expect(read.json.provenance.surface).toBe("cli");

    const json = await runCli(["receipt", "--from", file("r2.json", JSON.stringify(minimalReceipt({ learned: "json output" }))), "--json"], {
      env: u.env,
    });
    const { redactions, warnings: _w, ...stored } = json.json;
    expect(redactions).toEqual([]);
    expect((await server.rest("GET", `/v1/artifacts/${stored.id}`, u.token)).json).toEqual(stored);
  });

  it("--details lands under Details; --title, --tag, --model and --owner apply on top of the file", async () => {
    const u = await cliUser(server);
    const notes = file("notes.md", "Retries use exponential backoff.\n\n- first retry after 30 s\n");
    const r = await runCli(["receipt", "--from", EXAMPLE_YAML, "--details", notes, "--title", "Export retries", "--tag", "Nightly", "--tag", "finance"], {
      env: u.env,
    });
    expect(r.code, r.stderr).toBe(0);
    const id = /id\s+(art_\w+)/.exec(r.stdout)?.[1] as string;
    const a = (await server.rest("GET", `/v1/artifacts/${id}`, u.token)).json;
    expect(a.body).toMatch(/## Details\n\nRetries use exponential backoff\.\n\n- first retry after 30 s\n?$/);
    expect(a.title).toBe("Export retries");
    expect(a.tags).toEqual(["export", "nightly", "finance", "receipt"]);

    const other = await runCli(["receipt", "--from", EXAMPLE_JSON, "--model", "haiku-9", "--owner", "team:nobody", "--json"], { env: u.env });
    expect(other.code).toBe(4);
    expect(other.json.error.issues).toEqual([{ field: "owner", reason: "you are not a member of team:nobody" }]);
  });

  it("--dry-run prints the body and checksum the server then stores, without needing the server", async () => {
    const u = await cliUser(server);
    const args = ["receipt", "--from", EXAMPLE_YAML, "--details", file("dry.md", "Dry-run notes."), "--tag", "dry"];
    const offline = { CAIRN_HOME: mkdtempSync(join(tmpdir(), "cairn-nohome-")), CAIRN_URL: "http://127.0.0.1:9" };
    const dryHuman = await runCli([...args, "--dry-run"], { env: offline });
    expect(dryHuman.code, dryHuman.stderr).toBe(0);
    const dryJson = await runCli([...args, "--dry-run", "--json"], { env: offline });
    const checksum = /checksum\s+(sha256:[0-9a-f]{64})/.exec(dryHuman.stdout)?.[1];
    expect(checksum).toBe(dryJson.json.checksum);
    expect(dryHuman.stdout.startsWith(dryJson.json.body)).toBe(true);

    const stored = await runCli([...args, "--json"], { env: u.env });
    expect(stored.code, stored.stderr).toBe(0);
    expect(stored.json.checksum).toBe(checksum);
    expect(stored.json.body).toBe(dryJson.json.body);
    expect(stored.json.tags).toEqual(dryJson.json.tags);
    expect(stored.json.metadata).toEqual(dryJson.json.metadata);
  });

  it("an invalid file exits 1 and names each field, reason and limit, the same issues REST gives", async () => {
    const u = await cliUser(server);
    const bad = minimalReceipt({ outcome: { status: "pending" }, after: "y".repeat(4001) });
    const path = file(
      "bad.yaml",
      `# a broken receipt\n${Object.entries(bad)
        .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
        .join("\n")}\n`,
    );
    const human = await runCli(["receipt", "--from", path], { env: u.env });
    expect(human.code).toBe(1);
    expect(human.stderr).toContain("after: is longer than 4000 characters (limit 4000)");
    expect(human.stderr).toContain("outcome.measure_at: is required when status is pending");
    expect(human.stdout).toBe("");

    const json = await runCli(["receipt", "--from", path, "--json"], { env: u.env });
    expect(json.code).toBe(1);
    const rest = await server.rest("POST", "/v1/receipts", u.token, bad);
    expect(rest.status).toBe(422);
    expect(json.json.error.code).toBe(rest.json.error.code);
    expect(json.json.error.issues).toEqual(rest.json.error.issues);

    const dry = await runCli(["receipt", "--from", path, "--dry-run", "--json"], { env: u.env });
    expect(dry.code).toBe(1);
    expect(dry.json.error.issues).toEqual(rest.json.error.issues);
  });

  it("a document that is not an object reaches the server as it is: the refusal REST gives, the same as --dry-run", async () => {
    const u = await cliUser(server);
    for (const [name, content, value] of [
      ["list.json", JSON.stringify([minimalReceipt()]), [minimalReceipt()]],
      ["words.yaml", "just a sentence\n", "just a sentence"],
    ] as const) {
      const sent = await runCli(["receipt", "--from", file(name, content), "--json"], { env: u.env });
      const rest = await server.rest("POST", "/v1/receipts", u.token, value);
      expect(sent.code, sent.stderr).toBe(1);
      expect(rest.json.error.issues).toEqual([
        { field: "(input)", reason: expect.stringMatching(/^must be an object of fields .*not a mapping-less value such as a sentence$/) },
      ]);
      expect(sent.json.error.issues).toEqual(rest.json.error.issues);
      expect(sent.json.error.drop.surface).toBe("cli");
      const dry = await runCli(["receipt", "--from", file(name, content), "--dry-run", "--json"], { env: u.env });
      expect(dry.json.error.issues).toEqual(rest.json.error.issues);
    }
  });

  it("a file that does not parse exits 1 naming the line; a missing file is a usage error (2)", async () => {
    const u = await cliUser(server);
    const yaml = await runCli(["receipt", "--from", file("broken.yaml", "changed: a b c\nevidence: [\n")], { env: u.env });
    expect(yaml.code).toBe(1);
    expect(yaml.stderr).toMatch(/\(input\): is not valid YAML: .* at line \d+, column \d+/);
    const json = await runCli(["receipt", "--from", file("broken.json", '{\n  "changed": "a b c",\n}'), "--json"], { env: u.env });
    expect(json.code).toBe(1);
    expect(json.json.error.issues[0].field).toBe("(input)");
    expect(json.json.error.issues[0].reason).toMatch(/^is not valid JSON: .* at line 3, column 1$/);
    const missing = await runCli(["receipt", "--from", join(scratch, "nope.json")], { env: u.env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--from: cannot read");
    const noFrom = await runCli(["receipt"], { env: u.env });
    expect(noFrom.code).toBe(2);
  });
});
