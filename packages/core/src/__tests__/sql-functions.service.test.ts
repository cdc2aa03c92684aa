import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { functionChecksum, installFunctions, migrate } from "../store/migrate.js";
import { MIGRATIONS } from "../store/migrations/index.js";
import { SQL_FUNCTIONS } from "../store/sql/functions.generated.js";
import { DRIVERS } from "../testing/index.js";
import { useTestWorld } from "./helpers.js";

/**
 * Each SQL function's current definition is one file in store/sql (ADR 0049). These tests
 * hold the files to the databases, the generated module to the files, and every migration
 * that ever defined a function to the file that now carries it.
 */

const SQL_DIR = fileURLToPath(new URL("../store/sql/", import.meta.url));

/** The statement of a file: its leading `--` lines left out. */
const statementOf = (file: string) =>
  file
    .split("\n")
    .filter((line, i, lines) => !(line.startsWith("--") && lines.slice(0, i).every((l) => l.startsWith("--"))))
    .join("\n")
    .trim();

/** The migrations a file says its body folds in (`-- Folds: 0010_x, 0012_y`). */
const foldsOf = (file: string) =>
  (/^-- Folds: (.*)$/m.exec(file)?.[1] ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v.length > 0);

const DEFINES = /create\s+(?:or\s+replace\s+)?function\s+(?:public\.)?(\w+)\s*\(/gi;

describe("SQL function files", () => {
  it("the generated module is what scripts/embed-sql.mjs makes of the files (run `pnpm --filter @cairn/core build`)", async () => {
    const script = pathToFileURL(fileURLToPath(new URL("../../scripts/embed-sql.mjs", import.meta.url))).href;
    const { generatedModule } = (await import(script)) as { generatedModule: () => Promise<string> };
    expect(await readFile(`${SQL_DIR}functions.generated.ts`, "utf8")).toBe(await generatedModule());
    const files = (await readdir(SQL_DIR)).filter((f) => f.endsWith(".sql"));
    expect(SQL_FUNCTIONS.map((f) => `${f.name}.sql`)).toEqual(files.sort());
  });

  it("every migration that defines a function is folded into that function's file (Folds: names it)", () => {
    const files = new Map(SQL_FUNCTIONS.map((f) => [f.name, foldsOf(f.sql)]));
    const unfolded: string[] = [];
    for (const m of MIGRATIONS) {
      for (const [, name] of m.sql.matchAll(DEFINES)) {
        const folds = files.get(name as string);
        if (!folds) unfolded.push(`${m.version} defines ${name}, which has no file store/sql/${name}.sql`);
        else if (!folds.includes(m.version))
          unfolded.push(`${m.version} defines ${name}: copy its body into store/sql/${name}.sql and add ${m.version} to its Folds line`);
      }
    }
    expect(unfolded).toEqual([]);
  });
});

describe.each(DRIVERS)("SQL functions as installed on %s", (driver) => {
  const fx = useTestWorld(driver);

  const installed = async (name: string) => {
    const [row] = await fx.store.query<{ def: string }>(
      `select pg_get_functiondef(p.oid) as def from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where p.proname = $1 and n.nspname = current_schema()`,
      [name],
    );
    // pg_get_functiondef names the schema; the files do not (Cairn uses the connection's).
    return row?.def.replace(/^CREATE OR REPLACE FUNCTION [^.(]+\./, "CREATE OR REPLACE FUNCTION ").trim();
  };

  it.each(SQL_FUNCTIONS.map((f) => f.name))("%s is exactly its file", async (name) => {
    const file = await readFile(`${SQL_DIR}${name}.sql`, "utf8");
    expect(await installed(name)).toBe(statementOf(file));
  });

  it("a function whose file changed is created again at the next start, and its checksum recorded", async () => {
    const store = fx.store;
    // As if the file had changed since this database installed it: another body, another checksum.
    await store.query(
      "create or replace function cairn_measure_due_at(measure_at text) returns timestamptz language sql immutable strict as $$ select null::timestamptz $$",
    );
    await store.query("update schema_functions set checksum = 'an older file' where name = 'cairn_measure_due_at'");
    expect(await migrate(store)).toEqual([]);
    const [due] = await store.query<{ due: string | Date | null }>("select cairn_measure_due_at('2026-12-07') as due");
    expect(new Date(due?.due as string).toISOString()).toBe("2026-12-07T00:00:00.000Z");
    const rows = await store.query<{ name: string; checksum: string }>("select name, checksum from schema_functions order by name");
    expect(rows).toEqual(SQL_FUNCTIONS.map((f) => ({ name: f.name, checksum: functionChecksum(f.sql) })));
  });

  it("two releases of one function: whichever starts last, the higher generation's body is the one installed", async () => {
    const release = (generation: number) => ({
      name: "cairn_generation_probe",
      generation,
      sql: `-- Generation: ${generation}\ncreate or replace function cairn_generation_probe() returns int language sql immutable as $$ select ${generation} $$`,
    });
    const probe = async () => {
      const [row] = await fx.store.query<{ v: number }>("select cairn_generation_probe() as v");
      const [recorded] = await fx.store.query<{ generation: number }>("select generation from schema_functions where name = 'cairn_generation_probe'");
      return { body: row?.v, recorded: recorded?.generation };
    };
    try {
      await installFunctions(fx.store, [release(2)]);
      expect(await probe()).toEqual({ body: 2, recorded: 2 });
      // The older release starts again (a rolling upgrade, a rollback of one server): its body stays out.
      await installFunctions(fx.store, [release(1)]);
      expect(await probe()).toEqual({ body: 2, recorded: 2 });
      await installFunctions(fx.store, [release(3)]);
      expect(await probe()).toEqual({ body: 3, recorded: 3 });
    } finally {
      await fx.store.query("drop function if exists cairn_generation_probe()");
      await fx.store.query("delete from schema_functions where name = 'cairn_generation_probe'");
    }
  });

  it("a release that changed only a function: an older release starting after it keeps the newer body (no migration tells them apart)", async () => {
    const store = fx.store;
    const ours = SQL_FUNCTIONS.find((f) => f.name === "cairn_measure_due_at");
    // The newer release installed its body at a higher generation, and applied no migration.
    await store.query("alter table schema_functions add column if not exists generation integer");
    await store.query(
      "create or replace function cairn_measure_due_at(measure_at text) returns timestamptz language sql immutable strict as $$ select '2031-01-01T00:00:00Z'::timestamptz $$",
    );
    await store.query("update schema_functions set checksum = 'the newer file', generation = $1 where name = 'cairn_measure_due_at'", [
      (ours?.generation ?? 0) + 1,
    ]);
    try {
      expect(await migrate(store)).toEqual([]);
      const [due] = await store.query<{ due: string | Date | null }>("select cairn_measure_due_at('2026-12-07') as due");
      expect(new Date(due?.due as string).toISOString()).toBe("2031-01-01T00:00:00.000Z");
    } finally {
      // This file's other tests share the database: put this release back.
      await store.query("update schema_functions set generation = 0 where name = 'cairn_measure_due_at'");
      await migrate(store);
    }
  });

  it("a database a newer release migrated keeps that release's functions when this one starts", async () => {
    const store = fx.store;
    // As if a newer release had applied a migration this one does not know, and shipped another body.
    await store.query("insert into schema_migrations (version, checksum) values ('9999_a_newer_release', 'theirs')");
    await store.query(
      "create or replace function cairn_measure_due_at(measure_at text) returns timestamptz language sql immutable strict as $$ select '2030-01-01T00:00:00Z'::timestamptz $$",
    );
    await store.query("update schema_functions set checksum = 'the newer file' where name = 'cairn_measure_due_at'");
    try {
      expect(await migrate(store)).toEqual([]);
      const [due] = await store.query<{ due: string | Date | null }>("select cairn_measure_due_at('2026-12-07') as due");
      expect(new Date(due?.due as string).toISOString()).toBe("2030-01-01T00:00:00.000Z");
      const [row] = await store.query<{ checksum: string }>("select checksum from schema_functions where name = 'cairn_measure_due_at'");
      expect(row?.checksum).toBe("the newer file");
    } finally {
      // This file's other tests share the database: put this release back.
      await store.query("delete from schema_migrations where version = '9999_a_newer_release'");
      await migrate(store);
    }
  });
});
