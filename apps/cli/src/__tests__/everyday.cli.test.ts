import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ReceiptCreateInput } from "@cairn/core/receipt";
import { describe, expect, it } from "vitest";
import { EXAMPLE_JSON, EXAMPLE_YAML, REPO_ROOT, runCli, startCliServer } from "./cli-process.js";

const noHome = () => ({ CAIRN_HOME: mkdtempSync(join(tmpdir(), "cairn-nohome-")) });

/** The template with every placeholder answered: what a person writes in. */
const filledIn = (template: Record<string, unknown>) =>
  JSON.parse(
    JSON.stringify(template)
      .replace(/<fill in: [^>]*>/g, "our own answer")
      .replace("https://example.com/fill-in-a-link-to-the-proof", "https://ci.example.com/runs/9"),
  );

describe("cairn receipt --template", () => {
  it("prints a commented YAML receipt, one comment per field from the schema; unedited it is refused as invalid, naming each placeholder (SPEC §24)", async () => {
    const template = await runCli(["receipt", "--template"], { env: noHome() });
    expect(template.code).toBe(0);
    const shape = ReceiptCreateInput.shape as Record<string, unknown>;
    for (const key of Object.keys(shape).filter((k) => k !== "schema")) expect(template.stdout).toMatch(new RegExp(`^(# )?${key}:`, "m"));
    expect(template.stdout).toContain("# What changed? The TL;DR");
    const dry = await runCli(["receipt", "--from", "-", "--dry-run", "--json"], { env: noHome(), input: template.stdout });
    expect(dry.code).toBe(1);
    expect(dry.json.error.code).toBe("validation_failed");
    const placeholders = [
      "changed",
      "affected",
      "before",
      "after",
      "evidence.0.label",
      "evidence.0.url",
      "human_action",
      "remaining.0.item",
      "remaining.0.owner",
      "learned",
    ];
    expect(dry.json.error.issues.map((i: { field: string }) => i.field).sort()).toEqual([...placeholders].sort());
    expect(dry.json.error.issues[0].reason).toContain("template's placeholder");
    const human = await runCli(["receipt", "--from", "-", "--dry-run"], { env: noHome(), input: template.stdout });
    expect(human.code).not.toBe(0);
    for (const field of placeholders) expect(human.stderr).toContain(field);
  });

  it("prints JSON with --json; filled in, a dry run accepts it; refuses --yaml with --json", async () => {
    const template = await runCli(["receipt", "--template", "--json"], { env: noHome() });
    expect(template.code).toBe(0);
    expect(JSON.parse(template.stdout).outcome.status).toBe("pending");
    const dry = await runCli(["receipt", "--from", "-", "--dry-run"], { env: noHome(), input: JSON.stringify(filledIn(JSON.parse(template.stdout))) });
    expect(dry.code, dry.stderr).toBe(0);
    const both = await runCli(["receipt", "--template", "--json", "--yaml"], { env: noHome() });
    expect(both.code).toBe(2);
    const neither = await runCli(["receipt"], { env: noHome() });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain("--from");
  });
});

describe("a receipt file that is one sentence (SPEC §24)", () => {
  it("says it is not a mapping of fields, and nothing about dates", async () => {
    const ran = await runCli(["receipt", "--from", "-", "--dry-run"], { env: noHome(), input: "Fixed the export job today\n" });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain("must be an object of fields — a JSON object, or YAML with one `name: value` per line");
    expect(ran.stderr).not.toMatch(/date/i);
  });
});

describe("warnings that are not refusals", () => {
  it("a dry run with a past measure_at and no evidence succeeds and warns on stderr, naming each field", async () => {
    const template = filledIn(JSON.parse((await runCli(["receipt", "--template", "--json"], { env: noHome() })).stdout));
    const late = { ...template, evidence: [], outcome: { status: "pending", measure_at: "2020-01-01" } };
    const dry = await runCli(["receipt", "--from", "-", "--dry-run"], { env: noHome(), input: JSON.stringify(late) });
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain("warning: outcome.measure_at is already past");
    expect(dry.stderr).toContain("warning: evidence is empty");
    expect(dry.stdout).not.toContain("warning:");
  });
});

describe("pnpm cairn from a subfolder", () => {
  it("resolves paths from where the command was typed and prints only Cairn's output on stdout", () => {
    const work = mkdtempSync(join(tmpdir(), "cairn-sub-"));
    mkdirSync(join(work, "deeper"));
    writeFileSync(join(work, "r.yaml"), readFileSync(EXAMPLE_YAML, "utf8"));
    const ran = spawnSync("pnpm", ["--dir", REPO_ROOT, "cairn", "receipt", "--dry-run", "--from", "../r.yaml"], {
      cwd: join(work, "deeper"),
      env: { ...process.env, ...noHome() },
      encoding: "utf8",
    });
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout.startsWith("# Nightly invoice export")).toBe(true);
    expect(ran.stdout).not.toMatch(/turbo|Tasks:|Cached:/);
    expect(ran.stderr).not.toMatch(/turbo|Tasks:|Cached:/);
  });
});

describe("the README's quick start", () => {
  it("the CLI example, then the curl example with the token read through CAIRN_HOME, both answer 201", async () => {
    const server = await startCliServer("pglite");
    try {
      const cli = await runCli(["receipt", "--from", EXAMPLE_JSON, "--json"], { env: server.env });
      expect(cli.code, cli.stderr).toBe(0);
      // The README's own token one-liner, run with CAIRN_HOME set as a user of another home would.
      const readToken = `JSON.parse(require("fs").readFileSync((process.env.CAIRN_HOME || require("os").homedir() + "/.cairn") + "/credentials")).token`;
      const token = spawnSync(process.execPath, ["-p", readToken], { env: { ...process.env, ...server.env }, encoding: "utf8" }).stdout.trim();
      expect(token).toBe(server.adminToken);
      const body = JSON.parse(readFileSync(join(REPO_ROOT, "examples/receipt-measured.json"), "utf8"));
      const curl = await server.rest("POST", "/v1/receipts", token, body);
      expect(curl.status, curl.text).toBe(201);
      expect(curl.json.warnings).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

describe("cairn read <share link>", () => {
  it("reads a pasted share link as its holder, with no token; a wrong link is not found", async () => {
    const server = await startCliServer("pglite");
    try {
      const made = await runCli(["receipt", "--from", EXAMPLE_JSON, "--json"], { env: server.env });
      expect(made.code, made.stderr).toBe(0);
      const url: string = made.json.url;
      const stranger = noHome();
      const human = await runCli(["read", url], { env: stranger });
      expect(human.code, human.stderr).toBe(0);
      expect(human.stdout).toContain(made.json.title);
      expect(human.stdout).toContain(made.json.checksum);
      const json = await runCli(["read", url, "--json"], { env: stranger });
      expect(json.json.id).toBe(made.json.id);
      expect(json.json.follows).toBeNull();
      const wrong = await runCli(["read", url.replace(/\/s\/.*/, "/s/not-a-real-share-token-at-all-000000000000")], { env: stranger });
      expect(wrong.code).toBe(5);
    } finally {
      await server.stop();
    }
  });
});
