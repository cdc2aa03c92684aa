import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles, importGraph } from "../graph.js";

const REPO = resolve(import.meta.dirname, "../../../..");
const ROOTS = ["packages/core/src", "apps/rest/src", "apps/mcp/src", "apps/cli/src", "apps/web/src", "tooling/parity/src", "tooling/hostile/src"];

describe("the import graph", () => {
  it("has no cycles in any package", () => {
    const graph = importGraph(
      ROOTS.map((r) => join(REPO, r)),
      REPO,
    );
    expect(graph.size).toBeGreaterThan(150);
    expect(importCycles(graph)).toEqual([]);
  });

  it("finds a planted cycle, type-only imports and re-exports included, and ignores lazy import()", () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-cycles-"));
    try {
      mkdirSync(join(dir, "area"));
      writeFileSync(join(dir, "a.ts"), 'import type { B } from "./area/b.js";\nexport type A = B;\n');
      writeFileSync(join(dir, "area/b.ts"), 'export { c } from "../c.js";\nexport type B = string;\n');
      writeFileSync(join(dir, "c.ts"), 'import { type A } from "./a.js";\nexport const c = 1 as unknown as A;\n');
      writeFileSync(join(dir, "lazy.ts"), 'import { c } from "./c.js";\nexport const later = () => import("./lazy.js");\n');
      const cycles = importCycles(importGraph([dir], dir));
      expect(cycles).toEqual([["a.ts", "area/b.ts", "c.ts"]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
