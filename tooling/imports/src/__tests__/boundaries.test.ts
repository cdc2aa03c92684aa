import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../../../..");
const APPS = ["apps/rest/src", "apps/mcp/src", "apps/cli/src", "apps/web/src"];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "__tests__" || name === "node_modules" || name === "dist" ? [] : sources(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

/** What an adapter must not do: reach storage except through core's verbs (`cairn.startWorker` included). */
const STORAGE_REACH = [
  { what: "a core's store", pattern: /\bcairn\.store\b/ },
  { what: "a database driver", pattern: /from\s+["'](?:pg|@electric-sql\/pglite)(?:\/[^"']*)?["']/ },
  { what: "core's storage modules", pattern: /from\s+["']@cairn\/core\/(?:src\/)?store\b/ },
];

const offendersIn = (files: readonly { path: string; text: string }[]) =>
  files.flatMap(({ path, text }) => STORAGE_REACH.filter((r) => r.pattern.test(text)).map((r) => `${path}: ${r.what}`));

describe("adapter boundaries", () => {
  it("no app touches a store, a database driver or core's storage modules", () => {
    const files = APPS.flatMap((dir) => sources(join(REPO, dir))).map((file) => ({ path: relative(REPO, file), text: readFileSync(file, "utf8") }));
    expect(files.length).toBeGreaterThan(20);
    expect(offendersIn(files)).toEqual([]);
  });

  it("the check catches each kind of reach (so an empty list above means something)", () => {
    const planted = [
      { path: "a.ts", text: "await cairn.store.query('select 1')" },
      { path: "b.ts", text: 'import pg from "pg";' },
      { path: "c.ts", text: "import { PGlite } from '@electric-sql/pglite';" },
      { path: "d.ts", text: 'import { migrate } from "@cairn/core/store/migrate";' },
      { path: "e.ts", text: "const storeName = cairn.stores; // not a reach" },
    ];
    expect(offendersIn(planted)).toEqual(["a.ts: a core's store", "b.ts: a database driver", "c.ts: a database driver", "d.ts: core's storage modules"]);
  });
});
