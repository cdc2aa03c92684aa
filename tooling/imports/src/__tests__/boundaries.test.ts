import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../../../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "__tests__" || name === "node_modules" || name === "dist" ? [] : sources(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

/** Apps reach storage only through core's verbs (and `cairn.startWorker`); list an app here only with a reason. */
const STORE_ALLOWED: string[] = [];

describe("adapter boundaries", () => {
  it("no app but those listed touches Cairn.store", () => {
    const offenders = ["apps/rest/src", "apps/mcp/src", "apps/cli/src", "apps/web/src"]
      .filter((dir) => !STORE_ALLOWED.some((allowed) => dir.startsWith(allowed)))
      .flatMap((dir) => sources(join(REPO, dir)))
      .filter((file) => /\bcairn\.store\b/.test(readFileSync(file, "utf8")))
      .map((file) => relative(REPO, file));
    expect(offenders).toEqual([]);
  });

  it("the allowance is still needed (remove an entry once its app stops touching the store)", () => {
    for (const dir of STORE_ALLOWED) {
      const uses = sources(join(REPO, dir, "src")).filter((file) => /\bcairn\.store\b/.test(readFileSync(file, "utf8")));
      expect(uses.length, dir).toBeGreaterThan(0);
    }
  });
});
