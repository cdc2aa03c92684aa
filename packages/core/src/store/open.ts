import { databaseTimeoutsFrom } from "./faults.js";
import { migrate } from "./migrate.js";
import type { Store, StoreOptions } from "./port.js";

/**
 * Opens the configured store and brings its schema up to date. Drivers are imported
 * lazily so a process that never touches storage (the CLI's --dry-run) never loads them.
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  const store = options.databaseUrl
    ? await (await import("./pg.js")).openPgStore(options.databaseUrl, {
        timeouts: options.timeouts ?? databaseTimeoutsFrom(),
        ...(options.logger && { logger: options.logger }),
      })
    : await (await import("./pglite.js")).openPgliteStore(options.dataDir);
  try {
    await migrate(store);
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}
