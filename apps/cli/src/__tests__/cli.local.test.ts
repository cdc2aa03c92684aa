import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { detectFormat, parseDocument } from "../input/parse-document.js";
import { applyReceiptFlags } from "../input/receipt-flags.js";
import { EXAMPLE_JSON, EXAMPLE_YAML, REPO_ROOT, runCli, spawnCli } from "./cli-process.js";

const noHome = () => ({ CAIRN_HOME: mkdtempSync(join(tmpdir(), "cairn-nohome-")) });

/**
 * A module hook that records every module the CLI loads, so a test can see what a path
 * costs. It appends synchronously to a file: the hook runs on its own thread, and output
 * it wrote asynchronously could be lost when the CLI exits.
 */
function traced(): { nodeArgs: string[]; loaded(): string[] } {
  const dir = mkdtempSync(join(tmpdir(), "cairn-trace-"));
  const log = join(dir, "loaded.txt");
  writeFileSync(log, "");
  writeFileSync(
    join(dir, "hooks.mjs"),
    `import { appendFileSync } from "node:fs";\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + "\\n"); return r; }\n`,
  );
  // The binary and the quick path are CommonJS (docs/adr/0070): their require()s are logged
  // where CommonJS resolves, the ES modules' imports by the resolve hook.
  writeFileSync(
    join(dir, "register.mjs"),
    [
      'import { appendFileSync } from "node:fs";',
      'import Module, { builtinModules, register } from "node:module";',
      `register(${JSON.stringify(pathToFileURL(join(dir, "hooks.mjs")).href)});`,
      "const resolve = Module._resolveFilename;",
      "Module._resolveFilename = function (...args) {",
      "  const r = resolve.apply(this, args);",
      `  appendFileSync(${JSON.stringify(log)}, (builtinModules.includes(r) && !r.startsWith("node:") ? "node:" + r : r) + "\\n");`,
      "  return r;",
      "};",
    ].join("\n"),
  );
  return {
    nodeArgs: ["--import", pathToFileURL(join(dir, "register.mjs")).href],
    loaded: () => readFileSync(log, "utf8").split("\n").filter(Boolean),
  };
}

describe("cairn without a server", () => {
  it("--version prints the package version; --help documents commands, environment and exit codes", async () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "apps/cli/package.json"), "utf8"));
    const v = await spawnCli(["--version"]);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toBe(version);
    // Configurations written before the binary became bin.cjs (docs/adr/0070) name dist/bin.js: it still runs.
    const old = spawnSync(process.execPath, [join(REPO_ROOT, "apps/cli/dist/bin.js"), "--version"], { encoding: "utf8" });
    expect([old.status, old.stdout.trim()]).toEqual([0, version]);
    const help = await spawnCli(["--help"]);
    expect(help.code).toBe(0);
    for (const word of ["receipt", "read", "search", "export", "retain", "whoami", "user", "token", "CAIRN_TOKEN", "Exit codes"]) {
      expect(help.stdout).toContain(word);
    }
    expect(help.stdout).toMatch(/3 {2}server unreachable/);
    const receiptHelp = await runCli(["receipt", "--help"]);
    // Flag help is the schema's own description (the same text as OpenAPI and the JSON Schema).
    expect(receiptHelp.stdout).toContain("The model that wrote the receipt, e.g. opus-5.");
  });

  it("receipt --help lists every receipt field with its rule, and policy set --help every policy key, from core's schemas", async () => {
    const { fieldsOf, PolicySetInput, ReceiptCreateInput } = await import("@cairn/core");
    const help = (await runCli(["receipt", "--help"])).stdout.replace(/\s+/g, " ");
    for (const f of fieldsOf(ReceiptCreateInput))
      expect(help, f.name).toContain(`${f.name} ${f.required ? "required. " : ""}${f.description}`.replace(/\s+/g, " "));
    const policy = (await runCli(["policy", "set", "--help"])).stdout.replace(/\s+/g, " ");
    for (const f of fieldsOf(PolicySetInput).filter((x) => x.name !== "owner")) expect(policy, f.name).toContain(f.name);
    expect((await runCli(["policy", "set", "no_such_key", "1"], { env: noHome() })).code).toBe(2);
  });

  it("usage errors exit 2: unknown command, unknown option, bad CAIRN_URL", async () => {
    expect((await runCli(["frobnicate"])).code).toBe(2);
    expect((await runCli(["read", "x", "--nope"])).code).toBe(2);
    const badUrl = await runCli(["whoami"], { env: { ...noHome(), CAIRN_URL: "not a url", CAIRN_TOKEN: "cairn_x" } });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain("CAIRN_URL must be an http(s) URL");
  });

  it("no token anywhere exits 4 and says how to get one", async () => {
    const r = await runCli(["whoami"], { env: noHome() });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("no token: set CAIRN_TOKEN");
  });

  it("--dry-run loads core's receipt module but no storage, HTTP or YAML code for a JSON file", async () => {
    const jsonTrace = traced();
    const json = await spawnCli(["receipt", "--dry-run", "--from", EXAMPLE_JSON], { env: noHome(), nodeArgs: jsonTrace.nodeArgs });
    expect(json.code, json.stderr).toBe(0);
    const modules = jsonTrace.loaded();
    expect(modules.some((m) => m.includes("/core/dist/receipt/"))).toBe(true);
    expect(modules.filter((m) => /\/(pg|pg-[a-z]+|@electric-sql|hono|@hono)[@/]|\/store\/(pg|pglite|open)\.js|\/yaml[@/]/.test(m))).toEqual([]);
    const yamlTrace = traced();
    await spawnCli(["receipt", "--dry-run", "--from", EXAMPLE_YAML], { env: noHome(), nodeArgs: yamlTrace.nodeArgs });
    expect(yamlTrace.loaded().some((m) => /\/yaml[@/]/.test(m))).toBe(true);
  });

  it("read, receipt --from, --help and mcp start from the binary alone: no core, zod, SDK or commander module loads", async () => {
    const env = { ...noHome(), CAIRN_URL: "http://127.0.0.1:9", CAIRN_TOKEN: "cairn_x" };
    for (const args of [["read", "art_06h2k3m4n5p6q7r8s9t0v1w2x3"], ["receipt", "--from", EXAMPLE_JSON], ["--help"], ["mcp"]]) {
      const trace = traced();
      const ran = await spawnCli(args, { env, nodeArgs: trace.nodeArgs });
      expect(ran.code, `${args[0]}: ${ran.stderr}`).toBe(args[0] === "--help" ? 0 : args[0] === "mcp" ? 1 : 3);
      const loaded = trace.loaded();
      expect(
        loaded.some((m) => m.endsWith("/apps/cli/dist/bin.cjs")),
        args[0],
      ).toBe(true);
      expect(
        loaded.filter((m) => !m.startsWith("node:") && !m.includes("/apps/cli/dist/")),
        args[0],
      ).toEqual([]);
      // `cairn read ID` compiles two files of ours, not the program (docs/adr/0067).
      if (args[0] === "read")
        expect([...new Set(loaded.filter((m) => m.includes("/apps/cli/dist/")).map((m) => m.replace(/^.*\/dist\//, "")))]).toEqual(["bin.cjs", "quick.cjs"]);
    }
  });

  it("reads standard input, with or without a byte-order mark, to the same checksum as the file", async () => {
    const file = await runCli(["receipt", "--dry-run", "--json", "--from", EXAMPLE_JSON], { env: noHome() });
    const bom = await runCli(["receipt", "--dry-run", "--json", "--from", "-"], { env: noHome(), input: `\uFEFF${readFileSync(EXAMPLE_JSON, "utf8")}` });
    expect(bom.code, bom.stderr).toBe(0);
    expect(bom.json.checksum).toBe(file.json.checksum);
  });
});

describe("reading a receipt document", () => {
  it("detects the format from the content, not the name", async () => {
    expect(detectFormat('\n  {"changed": "x"}')).toBe("json");
    expect(detectFormat("# notes\n{changed: x}")).toBe("json");
    expect(detectFormat("changed: x\n")).toBe("yaml");
    const json = readFileSync(EXAMPLE_JSON, "utf8");
    const yaml = readFileSync(EXAMPLE_YAML, "utf8");
    expect(await parseDocument(yaml, "receipt.json.txt")).toEqual(await parseDocument(json, "-"));
    expect(await parseDocument("{changed: a b c, learned: yes}", "-")).toEqual({ changed: "a b c", learned: "yes" });
  });

  it("refuses empty, multi-document and duplicate-key input with the reason, never the content", async () => {
    for (const [text, reason] of [
      ["   \n", /is empty/],
      ["# nothing\n", /is empty/],
      ["a: 1\n---\nb: 2\n", /multiple documents/],
      ["a: 1\na: 2\n", /unique/],
      ['{"a": "sekrit-value", }', /^is not valid JSON/],
    ] as const) {
      const err: any = await parseDocument(text, "x.json").catch((e: unknown) => e);
      expect(err.error.issues[0].field).toBe("(input)");
      expect(err.error.issues[0].reason).toMatch(reason);
      expect(JSON.stringify(err.error)).not.toContain("sekrit");
    }
  });

  it("flags override the file and --tag adds to its tags, leaving a wrong shape for validation to name", () => {
    const doc = { changed: "a b c", tags: ["x"], title: "file title" };
    expect(applyReceiptFlags(doc, { tags: ["y"], title: "flag title", details: "notes" })).toEqual({
      changed: "a b c",
      tags: ["x", "y"],
      title: "flag title",
      details: "notes",
    });
    expect(applyReceiptFlags({ tags: "oops" }, { tags: ["y"] })).toEqual({ tags: "oops" });
    expect(applyReceiptFlags([1, 2], { tags: ["y"] })).toEqual([1, 2]);
  });
});
