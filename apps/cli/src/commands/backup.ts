import { createWriteStream } from "node:fs";
import { open, rename, rm, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { readCredentials, resolveSettings, type Settings } from "@cairn/core/local";

const USAGE_BACKUP = "usage: cairn backup --out FILE";
const USAGE_RESTORE = "usage: cairn restore FILE";

function outOf(args: readonly string[]): string | undefined {
  const [flag, value, ...rest] = args;
  if (rest.length > 0) return undefined;
  if (flag === "--out" && value) return value;
  if (flag?.startsWith("--out=") && value === undefined) return flag.slice("--out=".length) || undefined;
  return undefined;
}

/**
 * The embedded store belongs to the `cairn serve` that has it open, and only that process
 * can copy it consistently: the CLI asks it (`GET /admin/backup`, an administrator's token)
 * and streams the answer to the file (ADR 0082).
 */
async function fetchEmbeddedDump(settings: Settings, file: string): Promise<void> {
  const creds = await readCredentials(settings.credentialsPath).catch(() => null);
  const url = (process.env.CAIRN_URL || creds?.url || settings.serverUrl).replace(/\/+$/, "");
  const token = settings.token ?? creds?.token;
  if (!token) throw new Error(`no token: set CAIRN_TOKEN to an administrator's token, or run this where ${settings.credentialsPath} is.`);
  let res: Response;
  try {
    res = await fetch(`${url}/admin/backup`, { headers: { authorization: `Bearer ${token}` } });
  } catch {
    throw new Error(
      `no server answers at ${url}. The embedded store is copied by the cairn serve that owns it: start it (or set CAIRN_URL) and run this again.`,
    );
  }
  if (res.status !== 200 || !res.body) {
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(`the server refused (${res.status}): ${body?.error?.message ?? "no reason given"}`);
  }
  await pipeline(Readable.fromWeb(res.body as unknown as WebReadableStream), createWriteStream(file, { flags: "wx", mode: 0o600 }));
}

/** `cairn backup --out FILE`: a consistent copy while servers keep writing; the file appears whole or not at all. */
export async function runBackup(args: readonly string[]): Promise<number> {
  const out = outOf(args);
  if (!out) {
    console.error(USAGE_BACKUP);
    return 2;
  }
  const settings = resolveSettings();
  const partial = `${out}.partial-${process.pid}`;
  try {
    // Core (storage, pg) loads only when a backup runs: every other command starts without it.
    const { dumpPostgres } = await import("@cairn/core");
    if (settings.databaseUrl) await dumpPostgres(settings.databaseUrl, partial);
    else await fetchEmbeddedDump(settings, partial);
    await rename(partial, out);
    const { size } = await stat(out);
    console.log(
      `Backed up the ${settings.databaseUrl ? "PostgreSQL database (pg_dump)" : "embedded store"} to ${out} (${size} bytes). Restore it with: cairn restore ${out}`,
    );
    return 0;
  } catch (err) {
    await rm(partial, { force: true });
    console.error(`cairn backup: ${(err as Error).message}`);
    return 1;
  }
}

/** `cairn restore FILE`: into an empty CAIRN_HOME (embedded backup) or an empty DATABASE_URL (pg_dump backup); anything else is refused. */
export async function runRestore(args: readonly string[]): Promise<number> {
  const [file, ...rest] = args;
  if (!file || rest.length > 0 || file.startsWith("-")) {
    console.error(USAGE_RESTORE);
    return 2;
  }
  const settings = resolveSettings();
  try {
    const handle = await open(file, "r");
    const head = Buffer.alloc(5);
    await handle.read(head, 0, 5, 0).finally(() => handle.close());
    const { backupKindOf, restoreEmbedded, restorePostgres } = await import("@cairn/core");
    const kind = backupKindOf(head);
    if (!kind) throw new Error(`${file} is not a backup cairn backup wrote (neither the embedded store's nor pg_dump's format).`);
    if (kind === "embedded") {
      if (settings.databaseUrl) throw new Error(`${file} is an embedded-store backup; unset DATABASE_URL to restore it into CAIRN_HOME (${settings.home}).`);
      await restoreEmbedded(settings.dataDir, file);
      console.log(`Restored ${file} into ${settings.dataDir}. Start it with: cairn serve`);
    } else {
      if (!settings.databaseUrl) throw new Error(`${file} is a PostgreSQL backup (pg_dump); set DATABASE_URL to an empty database to restore it.`);
      await restorePostgres(settings.databaseUrl, file);
      console.log(`Restored ${file} into the database at DATABASE_URL. Start it with: cairn serve`);
    }
    return 0;
  } catch (err) {
    console.error(`cairn restore: ${(err as Error).message}`);
    return 1;
  }
}
