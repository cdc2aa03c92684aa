import { createHash } from "node:crypto";
import { MIGRATIONS, type Migration } from "./migrations/index.js";
import type { Sql, Store } from "./port.js";
import type { SqlFunction } from "./sql/function.js";
import { SQL_FUNCTIONS } from "./sql/functions.generated.js";

/** Arbitrary constant: serialises migration runs of several `cairn serve` processes on one database. */
const MIGRATION_LOCK = 7_373_001;

/** The checksum recorded for an applied migration: sha256 of its SQL text. */
export const migrationChecksum = (m: Migration): string => createHash("sha256").update(m.sql, "utf8").digest("hex");

/** An applied migration whose text is not what was applied: the schema may not be what this code expects. */
export class ChangedMigrationError extends Error {
  constructor(readonly version: string) {
    super(
      `migration ${version} was changed after this database applied it (its checksum differs). ` +
        "Restore the migration as it was and put the change in a new one; Cairn will not start on a schema it cannot vouch for.",
    );
    this.name = "ChangedMigrationError";
  }
}

/**
 * Brings the schema up to date, and refuses (ChangedMigrationError) when an applied
 * migration's text has changed since (ADR 0029). Rows applied before checksums were
 * recorded have none: they take the checksum of the migration as this release ships it
 * (a baseline), so an installation that applied them starts as before.
 */
export async function migrate(store: Store): Promise<string[]> {
  return store.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.query("create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())");
    await tx.query("alter table schema_migrations add column if not exists checksum text");
    const rows = await tx.query<{ version: string; checksum: string | null }>("select version, checksum from schema_migrations");
    const recorded = new Map(rows.map((r) => [r.version, r.checksum]));
    const applied: string[] = [];
    const known = new Set(MIGRATIONS.map((m) => m.version));
    const newerRelease = rows.some((r) => !known.has(r.version));
    for (const m of MIGRATIONS) {
      const checksum = migrationChecksum(m);
      if (recorded.has(m.version)) {
        const was = recorded.get(m.version);
        if (was === null) await tx.query("update schema_migrations set checksum = $2 where version = $1", [m.version, checksum]);
        else if (was !== checksum) throw new ChangedMigrationError(m.version);
        continue;
      }
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query("insert into schema_migrations (version, checksum) values ($1, $2)", [m.version, checksum]);
      applied.push(m.version);
    }
    // A newer release migrated this database: its functions are written for the schema as it
    // is now, and for callers of earlier releases (ADR 0073, 0074); this release's older
    // bodies may not even fit that schema. They stay until that release starts again.
    if (!newerRelease) await installFunctions(tx);
    return applied;
  });
}

/** The checksum recorded for an installed function: sha256 of its `.sql` file. */
export const functionChecksum = (sql: string): string => createHash("sha256").update(sql, "utf8").digest("hex");

/**
 * The repeatable step, after the migrations (ADR 0049): each SQL function's current
 * definition is its file in `store/sql/`; one whose file changed since it was installed
 * (or never installed) is created again and its checksum and generation recorded. So a
 * change to a function edits its file only, and the migrations that created earlier
 * versions stay as they were applied. A function installed at a higher generation than
 * this release's file is a newer release's body and stays (ADR 0077): a release that
 * changed only a function leaves no migration for the guard in `migrate` to see. Rows from
 * before generations were recorded count as generation 0.
 */
export async function installFunctions(tx: Sql, functions: readonly SqlFunction[] = SQL_FUNCTIONS): Promise<void> {
  await tx.query(
    "create table if not exists schema_functions (name text primary key, checksum text not null, installed_at timestamptz not null default now())",
  );
  await tx.query("alter table schema_functions add column if not exists generation integer");
  const rows = await tx.query<{ name: string; checksum: string; generation: number | null }>("select name, checksum, generation from schema_functions");
  const installed = new Map(rows.map((r) => [r.name, r]));
  for (const f of functions) {
    const checksum = functionChecksum(f.sql);
    const was = installed.get(f.name);
    if (was?.checksum === checksum || (was?.generation ?? 0) > f.generation) continue;
    await tx.query(f.sql);
    await tx.query(
      `insert into schema_functions (name, checksum, generation) values ($1, $2, $3)
       on conflict (name) do update set checksum = excluded.checksum, generation = excluded.generation, installed_at = now()`,
      [f.name, checksum, f.generation],
    );
  }
}

/**
 * Splits on `;` outside `$$`-quoted function bodies (migration 0010's functions have
 * statements of their own). Migrations hold no semicolons inside string literals.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  // Even-numbered pieces are outside $$ … $$; only there does `;` end a statement.
  const pieces = sql.split("$$");
  let current = "";
  pieces.forEach((piece, i) => {
    if (i % 2 === 1) {
      current += `$$${piece}$$`;
      return;
    }
    const parts = piece.split(";");
    current += parts[0];
    for (const part of parts.slice(1)) {
      statements.push(current);
      current = part;
    }
  });
  statements.push(current);
  return statements.map((s) => s.trim()).filter((s) => s.length > 0);
}
