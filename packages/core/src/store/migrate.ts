import { MIGRATIONS } from "./migrations/index.js";
import type { Store } from "./port.js";

/** Arbitrary constant: serialises migration runs of several `cairn serve` processes on one database. */
const MIGRATION_LOCK = 7_373_001;

export async function migrate(store: Store): Promise<string[]> {
  return store.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.query(
      "create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())",
    );
    const done = new Set((await tx.query<{ version: string }>("select version from schema_migrations")).map((r) => r.version));
    const applied: string[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query("insert into schema_migrations (version) values ($1)", [m.version]);
      applied.push(m.version);
    }
    return applied;
  });
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
