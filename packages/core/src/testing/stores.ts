import { randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "../store/migrate.js";
import type { Store } from "../store/port.js";

/** `pgbouncer`: the real PostgreSQL server through a real PgBouncer in transaction pooling mode. */
export type Driver = "pglite" | "pg" | "pgbouncer";
const LISTED_DRIVERS = process.env.CAIRN_TEST_DRIVERS?.split(",")
  .map((d) => d.trim())
  .filter((d): d is Driver => d === "pglite" || d === "pg" || d === "pgbouncer");
/**
 * Every storage test runs once per driver. CAIRN_TEST_DRIVERS narrows the list (e.g.
 * `pglite` on a machine without PostgreSQL) or widens it (`pgbouncer`: the whole storage
 * suite through PgBouncer); CI runs both stores.
 */
export const DRIVERS: readonly Driver[] = LISTED_DRIVERS ?? ["pglite", "pg"];
/**
 * The tests of what concurrent writers and processes share through the database (the
 * duplicate and idempotency races, exactly-once delivery across processes, revocation
 * reaching every process) also run through PgBouncer in transaction mode (SPEC §23).
 */
export const CONCURRENCY_DRIVERS: readonly Driver[] = LISTED_DRIVERS ?? ["pglite", "pg", "pgbouncer"];

/**
 * Adapter tests (REST, MCP, CLI, parity) test no storage: they run on one store, the
 * embedded one, unless CAIRN_TEST_DRIVERS leaves it out. Storage is tested on every
 * driver in core.
 */
export const ADAPTER_DRIVERS: readonly Driver[] = DRIVERS.includes("pglite") ? ["pglite"] : DRIVERS.slice(0, 1);

/** Admin connection used to create and drop one throwaway database per test file. */
export const PG_ADMIN_URL = process.env.CAIRN_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const TEMPLATE_DIR = join(tmpdir(), "cairn-pglite-template-0.5.17");
const READY = join(TEMPLATE_DIR, ".cairn-ready");

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/**
 * initdb of an embedded store costs seconds and a lot of memory, so it happens once per
 * machine into a template directory; each test copies the template (~60 ms).
 */
async function pgliteTemplate(): Promise<string> {
  if (await exists(READY)) return TEMPLATE_DIR;
  const lock = `${TEMPLATE_DIR}.lock`;
  try {
    await mkdir(lock);
  } catch {
    for (let i = 0; i < 600 && !(await exists(READY)); i++) await new Promise((r) => setTimeout(r, 100));
    if (await exists(READY)) return TEMPLATE_DIR;
    throw new Error(`PGlite template was not ready in time (remove ${lock} if a run crashed)`);
  }
  try {
    const staging = await mkdtemp(join(tmpdir(), "cairn-pglite-staging-"));
    const { PGlite } = await import("@electric-sql/pglite");
    const db = new PGlite(staging);
    await db.waitReady;
    await db.close();
    await rm(TEMPLATE_DIR, { recursive: true, force: true });
    await cp(staging, TEMPLATE_DIR, { recursive: true });
    await rm(staging, { recursive: true, force: true });
    await writeFile(READY, "");
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
  return TEMPLATE_DIR;
}

/** A fresh embedded data directory (not yet opened), copied from the template. */
export async function freshPgliteDir(): Promise<string> {
  const template = await pgliteTemplate();
  const dir = await mkdtemp(join(tmpdir(), "cairn-test-pglite-"));
  await cp(template, dir, { recursive: true, filter: (src) => !src.endsWith(".cairn-ready") });
  return dir;
}

export interface TestDatabase {
  driver: Driver;
  /** Set for pg and pgbouncer: the throwaway database's URL (through PgBouncer for pgbouncer). */
  databaseUrl?: string;
  /** Set for pg and pgbouncer: the same database, straight to PostgreSQL. */
  directUrl?: string;
  /** Set for pglite: the data directory. */
  dataDir?: string;
  dispose(): Promise<void>;
}

/** A throwaway database for one test file: a new Postgres database, or a copied PGlite directory. */
export async function createTestDatabase(driver: Driver): Promise<TestDatabase> {
  if (driver === "pglite") {
    const dataDir = await freshPgliteDir();
    return { driver, dataDir, dispose: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const pg = (await import("pg")).default;
  const name = `cairn_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  // As docs/scaling.md tells operators: the role's (here the database's) timeout bounds single statements.
  await admin.query(`alter database ${name} set statement_timeout = '4s'`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const directUrl = url.toString();
  const drop = async () => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
  let bouncer: import("./pgbouncer.js").PgBouncer | undefined;
  try {
    if (driver === "pgbouncer") bouncer = await (await import("./pgbouncer.js")).startPgBouncer({ target: PG_ADMIN_URL });
  } catch (err) {
    await drop();
    throw err;
  }
  return {
    driver,
    databaseUrl: bouncer ? bouncer.through(directUrl) : directUrl,
    directUrl,
    async dispose() {
      await bouncer?.stop();
      await drop();
    },
  };
}

/** Opens a migrated store on a fresh throwaway database; close() also disposes of it. */
export async function openTestStore(driver: Driver): Promise<Store> {
  const db = await createTestDatabase(driver);
  let store: Store;
  try {
    store =
      driver !== "pglite"
        ? await (await import("../store/pg.js")).openPgStore(db.databaseUrl as string)
        : await (await import("../store/pglite.js")).openPgliteStore(db.dataDir);
  } catch (err) {
    // Nothing else would drop the database or stop its PgBouncer.
    await db.dispose();
    throw err;
  }
  await migrate(store);
  return {
    ...store,
    driver: store.driver,
    async close() {
      await store.close();
      await db.dispose();
    },
  };
}

/**
 * A CAIRN_HOME for a `cairn serve` under test: the embedded store copied from the
 * template into `pgdata`, or a throwaway PostgreSQL database in DATABASE_URL (through
 * PgBouncer for pgbouncer; `directUrl` is then the way around it, for CAIRN_MIGRATE_URL).
 */
export async function createTestHome(driver: Driver): Promise<{ env: Record<string, string>; home: string; directUrl?: string; dispose(): Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), "cairn-home-"));
  if (driver === "pglite") {
    await rename(await freshPgliteDir(), join(home, "pgdata"));
    return { env: { CAIRN_HOME: home }, home, dispose: () => rm(home, { recursive: true, force: true }) };
  }
  const db = await createTestDatabase(driver);
  return {
    env: { CAIRN_HOME: home, DATABASE_URL: db.databaseUrl as string },
    home,
    directUrl: db.directUrl as string,
    async dispose() {
      await db.dispose();
      await rm(home, { recursive: true, force: true });
    },
  };
}

export interface PgAdmin {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * A superuser connection to the test server, for what a test does as the operator (roles,
 * database settings); to one test database when given its URL (one client: a transaction
 * it begins holds its locks until it ends).
 */
export async function connectPgAdmin(url: string = PG_ADMIN_URL): Promise<PgAdmin> {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    query: async (text, params = []) => (await client.query(text, params)).rows,
    close: () => client.end(),
  };
}
