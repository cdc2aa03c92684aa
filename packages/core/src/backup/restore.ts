import { spawn } from "node:child_process";
import { mkdir, readdir, readFile } from "node:fs/promises";

/** The first bytes of each kind of backup `cairn backup` writes. */
const GZIP = Buffer.from([0x1f, 0x8b]);
const PG_CUSTOM = Buffer.from("PGDMP");

export type BackupKind = "embedded" | "postgresql";

export function backupKindOf(head: Buffer): BackupKind | undefined {
  if (head.subarray(0, 2).equals(GZIP)) return "embedded";
  if (head.subarray(0, 5).equals(PG_CUSTOM)) return "postgresql";
  return undefined;
}

/** Runs a program to its end; stderr is kept for the refusal message (pg_dump's own words). */
export function runTool(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stderr }));
  });
}

const missingTool = (tool: string) =>
  new Error(
    `${tool} is not installed: install PostgreSQL's client tools (Debian/Ubuntu: apt-get install postgresql-client, matching the server's major version) and run this again.`,
  );

async function pgTool(tool: "pg_dump" | "pg_restore", args: string[]): Promise<void> {
  let result: { code: number | null; stderr: string };
  try {
    result = await runTool(tool, args);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") throw missingTool(tool);
    throw err;
  }
  if (result.code !== 0) throw new Error(`${tool} failed (exit ${result.code}): ${result.stderr.trim().split("\n").slice(-3).join(" ")}`);
}

/**
 * PostgreSQL: `pg_dump` in its custom format. It reads in one repeatable-read snapshot,
 * so the copy is consistent while servers keep writing.
 */
export async function dumpPostgres(databaseUrl: string, out: string): Promise<void> {
  await pgTool("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${out}`, `--dbname=${databaseUrl}`]);
}

/** Refuses a database that holds any table, view or sequence of its own: restore fills an empty one only. */
export async function restorePostgres(databaseUrl: string, file: string): Promise<void> {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
        where c.relkind in ('r', 'p', 'v', 'm', 'S') and s.nspname not in ('pg_catalog', 'information_schema') and s.nspname not like 'pg_toast%'`,
    );
    if ((rows[0]?.n ?? 0) > 0)
      throw new Error(
        `the database is not empty (${rows[0]?.n} tables, views or sequences): restore fills an empty database only. Create a new one (createdb) and point DATABASE_URL at it.`,
      );
  } finally {
    await client.end();
  }
  await pgTool("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${databaseUrl}`, file]);
}

/** Refuses a data directory that holds anything; fills it from the embedded store's dump and opens it once, to check it is Cairn's. */
export async function restoreEmbedded(dataDir: string, file: string): Promise<void> {
  const present = await readdir(dataDir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return [];
    throw err;
  });
  if (present.length > 0) throw new Error(`${dataDir} is not empty: restore fills an empty CAIRN_HOME only. Point CAIRN_HOME at a new directory.`);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(dataDir, { loadDataDir: new Blob([await readFile(file)]) });
  try {
    await db.waitReady;
    await db.query("select count(*) from schema_migrations");
  } finally {
    await db.close();
  }
}
