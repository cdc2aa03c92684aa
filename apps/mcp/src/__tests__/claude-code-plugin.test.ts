import { readFileSync } from "node:fs";
import { join } from "node:path";
import { receiptQuestions } from "@cairn/core";
import { describe, expect, it } from "vitest";

const PLUGIN = join(import.meta.dirname, "../../../../integrations/claude-code");
const read = (path: string) => readFileSync(join(PLUGIN, path), "utf8");

/** A command file's YAML front matter: flat `key: value` lines, quoted values JSON strings. */
function frontMatter(markdown: string): { meta: Record<string, string>; body: string } {
  const match = markdown.match(/^---\n([\s\S]*?)\n---\n([\s\S]*)$/);
  if (!match) throw new Error("no front matter");
  const meta = Object.fromEntries(
    (match[1] as string).split("\n").map((line) => {
      const [, key, value] = line.match(/^([a-z-]+):\s*(.*)$/) ?? [];
      if (!key || value === undefined) throw new Error(`not a key: value line: ${line}`);
      return [key, value.startsWith('"') ? (JSON.parse(value) as string) : value];
    }),
  );
  return { meta, body: match[2] as string };
}

describe("the Claude Code plugin in integrations/claude-code", () => {
  it("has a manifest Claude Code accepts: a kebab-case name (the command namespace), a version and a description", () => {
    const manifest = JSON.parse(read(".claude-plugin/plugin.json"));
    expect(manifest.name).toBe("cairn");
    expect(manifest.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.description.length).toBeGreaterThan(20);
  });

  it("runs `cairn mcp` on stdio, the binary the CLI package installs", () => {
    const config = JSON.parse(read(".mcp.json"));
    expect(config.mcpServers.cairn).toEqual({ command: "cairn", args: ["mcp"] });
    const cli = JSON.parse(readFileSync(join(import.meta.dirname, "../../../cli/package.json"), "utf8"));
    expect(Object.keys(cli.bin)).toContain("cairn");
  });

  it("has /cairn:receipt asking core's nine questions, calling receipt_create and reminding of expiry", () => {
    const { meta, body } = frontMatter(read("commands/receipt.md"));
    expect(meta.description).toMatch(/receipt/i);
    expect(meta["argument-hint"]).toBe("[task]");
    expect(body).toContain("$ARGUMENTS");
    receiptQuestions().forEach((q, i) => {
      expect(body, q.field).toContain(`${i + 1}. ${q.question} (\`${q.field}\`)`);
    });
    expect(body).toContain("`receipt_create`");
    expect(body).toMatch(/expires[\s\S]*unless I retain it/);
  });
});
