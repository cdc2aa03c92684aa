import { execFile } from "node:child_process";
import { chmod, chown, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Debian's PostgreSQL 15 programs; CAIRN_PG_BIN points elsewhere. */
export const PG_BIN = process.env.CAIRN_PG_BIN ?? "/usr/lib/postgresql/15/bin";

export interface ThrowawayPostgres {
  port: number;
  dataDir: string;
  /** `postgres://postgres@127.0.0.1:PORT/postgres` */
  url: string;
  /** Runs one of PostgreSQL's programs as the instance's owner. */
  pg(program: string, args: string[]): Promise<string>;
  promote(): Promise<void>;
  stop(mode?: "fast" | "immediate"): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// PostgreSQL refuses to run as root: as root, everything runs as the `postgres` user.
const asOwner = process.getuid?.() === 0;

export async function runAsPostgres(program: string, args: string[], timeout = 60_000): Promise<string> {
  const [cmd, argv] = asOwner ? ["runuser", ["-u", "postgres", "--", program, ...args]] : [program, args];
  const { stdout } = await run(cmd, argv, { timeout, maxBuffer: 4 << 20 });
  return stdout;
}

async function ownedTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await chmod(dir, 0o700);
  if (asOwner) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  return dir;
}

function instance(dataDir: string, port: number): ThrowawayPostgres {
  const pg = (program: string, args: string[]) => runAsPostgres(join(PG_BIN, program), args);
  return {
    port,
    dataDir,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pg,
    async promote() {
      await pg("pg_ctl", ["promote", "-w", "-D", dataDir]);
    },
    async stop(mode = "fast") {
      await pg("pg_ctl", ["stop", "-w", "-m", mode, "-D", dataDir]).catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function start(dataDir: string, port: number): Promise<void> {
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dataDir} -c fsync=off`;
  await runAsPostgres(join(PG_BIN, "pg_ctl"), ["start", "-w", "-t", "60", "-D", dataDir, "-l", join(dataDir, "log"), "-o", options]);
}

/** A new primary on a free loopback port, trust auth (replication too), in a temporary directory. */
export async function startThrowawayPrimary(): Promise<ThrowawayPostgres> {
  const dataDir = await ownedTempDir("cairn-pg-");
  await runAsPostgres(join(PG_BIN, "initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
  await writeFile(join(dataDir, "postgresql.auto.conf"), "max_connections = 60\nshared_buffers = '32MB'\n", { flag: "a" });
  const port = await freePort();
  await start(dataDir, port);
  return instance(dataDir, port);
}

/** A streaming standby of `primary` made as an operator makes one: `pg_basebackup -R`. */
export async function startThrowawayStandby(primary: ThrowawayPostgres): Promise<ThrowawayPostgres> {
  const dataDir = await ownedTempDir("cairn-pg-standby-");
  await runAsPostgres(join(PG_BIN, "pg_basebackup"), [
    "-h",
    "127.0.0.1",
    "-p",
    String(primary.port),
    "-U",
    "postgres",
    "-D",
    dataDir,
    "-R",
    "-X",
    "stream",
    "--no-sync",
  ]);
  const port = await freePort();
  await start(dataDir, port);
  return instance(dataDir, port);
}
