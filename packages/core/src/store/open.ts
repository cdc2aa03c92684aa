import { databaseTimeoutsFrom } from "./faults.js";
import { migrate } from "./migrate.js";
import type { Store, StoreOptions } from "./port.js";

/**
 * Opens the configured store and brings its schema up to date. Drivers are imported
 * lazily so a process that never touches storage (the CLI's --dry-run) never loads them.
 *
 * `migrateUrl` (CAIRN_MIGRATE_URL) runs the migrations over another connection than the
 * one that serves, e.g. directly to PostgreSQL (or as the schema's owner) while requests
 * go through PgBouncer; migrations need no session state, so it is optional (ADR 0038).
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  const migrateUrl = options.migrateUrl ?? (process.env.CAIRN_MIGRATE_URL || undefined);
  if (migrateUrl && !options.databaseUrl) {
    throw new Error("CAIRN_MIGRATE_URL needs DATABASE_URL: the embedded store migrates itself.");
  }
  const timeouts = options.timeouts ?? databaseTimeoutsFrom();
  const openPg = async (url: string) => (await import("./pg.js")).openPgStore(url, { timeouts, ...(options.logger && { logger: options.logger }) });
  if (migrateUrl) {
    const migrator = await openPg(migrateUrl);
    try {
      await migrate(migrator);
    } finally {
      await migrator.close();
    }
  }
  const store = options.databaseUrl ? await openPg(options.databaseUrl) : await (await import("./pglite.js")).openPgliteStore(options.dataDir);
  if (migrateUrl) return store;
  try {
    await migrate(store);
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

/**
 * The store for reads that may be seconds old, when a replica is configured
 * (`readDatabaseUrl`, default CAIRN_READ_DATABASE_URL): a streaming standby, or several
 * hosts with `target_session_attrs=prefer-standby`. It never migrates (a standby cannot
 * write); what reads where is read-routing.ts (ADR 0085).
 */
export async function openReadStore(options: StoreOptions): Promise<Store | undefined> {
  const url = options.readDatabaseUrl ?? (process.env.CAIRN_READ_DATABASE_URL || undefined);
  if (!url) return undefined;
  if (!options.databaseUrl) throw new Error("CAIRN_READ_DATABASE_URL needs DATABASE_URL: the embedded store has no replica.");
  const timeouts = options.timeouts ?? databaseTimeoutsFrom();
  return (await import("./pg.js")).openPgStore(url, { timeouts, ...(options.logger && { logger: options.logger }) });
}
