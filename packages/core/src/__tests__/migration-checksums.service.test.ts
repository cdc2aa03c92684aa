import { describe, expect, it } from "vitest";
import { ChangedMigrationError, migrate, migrationChecksum } from "../store/migrate.js";
import { MIGRATIONS } from "../store/migrations/index.js";
import { openStore } from "../store/open.js";
import { openPgStore } from "../store/pg.js";
import { openPgliteStore } from "../store/pglite.js";
import { createTestDatabase, DRIVERS, openTestStore } from "../testing/index.js";

const CREATE_INDEX = /create\s+(?:unique\s+)?index\s+(?:if\s+not\s+exists\s+)?(\w+)/gi;

describe("migrations", () => {
  it("no two migrations create an index of the same name", () => {
    const seen = new Map<string, string>();
    const repeated: string[] = [];
    for (const m of MIGRATIONS) {
      for (const [, name] of m.sql.matchAll(CREATE_INDEX)) {
        if (seen.has(name as string)) repeated.push(`${name} in ${seen.get(name as string)} and ${m.version}`);
        else seen.set(name as string, m.version);
      }
    }
    expect(seen.size).toBeGreaterThan(20);
    expect(repeated).toEqual([]);
  });
});

describe.each(DRIVERS)("migration checksums on %s", (driver) => {
  it("records the checksum of every migration it applies", async () => {
    const store = await openTestStore(driver);
    try {
      const rows = await store.query<{ version: string; checksum: string }>("select version, checksum from schema_migrations order by version");
      expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, checksum: migrationChecksum(m) })));
    } finally {
      await store.close();
    }
  });

  it("an installation that applied migrations before checksums were recorded still starts, and is baselined", async () => {
    const store = await openTestStore(driver);
    try {
      await store.query("update schema_migrations set checksum = null");
      await store.query("alter table schema_migrations drop column checksum");
      expect(await migrate(store)).toEqual([]);
      const rows = await store.query<{ checksum: string | null }>("select checksum from schema_migrations");
      expect(rows.every((r) => r.checksum !== null)).toBe(true);
      expect(await migrate(store)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("refuses to start when an applied migration has changed, naming it; nothing is applied", async () => {
    const db = await createTestDatabase(driver);
    const options = { databaseUrl: db.databaseUrl, dataDir: db.dataDir };
    try {
      const first = await openStore(options);
      await first.query("update schema_migrations set checksum = $1 where version = $2", ["0".repeat(64), "0008_lifecycle"]);
      await first.query("delete from schema_migrations where version = $1", [MIGRATIONS.at(-1)?.version]);
      await first.close();
      const err = await openStore(options).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ChangedMigrationError);
      expect((err as Error).message).toContain("migration 0008_lifecycle was changed after this database applied it");
      // The refusal rolled back: the missing last migration was not applied either.
      const raw = driver === "pg" ? await openPgStore(db.databaseUrl as string) : await openPgliteStore(db.dataDir);
      const versions = (await raw.query<{ version: string }>("select version from schema_migrations")).map((r) => r.version);
      await raw.close();
      expect(versions).not.toContain(MIGRATIONS.at(-1)?.version);
      expect(versions).toHaveLength(MIGRATIONS.length - 1);
    } finally {
      await db.dispose();
    }
  });
});
