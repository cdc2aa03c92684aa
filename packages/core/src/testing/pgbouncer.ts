import { type ChildProcess, spawn } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Debian's package (`apt-get install pgbouncer`); CAIRN_PGBOUNCER_BIN points elsewhere. */
export const PGBOUNCER_BIN = process.env.CAIRN_PGBOUNCER_BIN ?? "/usr/sbin/pgbouncer";

export interface PgBouncerOptions {
  /** The PostgreSQL server behind it, as a URL whose host, port and user are used. */
  target: string;
  /** Server connections per database (and user): fewer than the clients, so they are shared. */
  poolSize?: number;
  /** Listen on this port (a restart in place, after `kill`) instead of a free one. */
  port?: number;
}

export interface PgBouncer {
  port: number;
  /** Its process (for CPU accounting in the bench). */
  pid: number;
  /** `url` with its host and port replaced by PgBouncer's. */
  through(url: string): string;
  /** Everything PgBouncer logged. */
  output(): string;
  /** Ends the process with `signal` (SIGKILL: a crash) and waits for it; `startPgBouncer({ port })` starts another in its place. */
  kill(signal: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A real PgBouncer in transaction pooling mode on a free loopback port, configured as an
 * operator would (`ignore_startup_parameters = extra_float_digits`, nothing else let
 * through), in front of `target`. Every database name is forwarded (`*`), so throwaway
 * test databases need no configuration. PgBouncer refuses to run as root: it is then
 * started with `-u postgres`.
 */
export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  const target = new URL(options.target);
  const dir = await mkdtemp(join(tmpdir(), "cairn-pgbouncer-"));
  await chmod(dir, 0o755);
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const ini = join(dir, "pgbouncer.ini");
    await writeFile(
      ini,
      [
        "[databases]",
        `* = host=${target.hostname} port=${target.port || "5432"} user=${decodeURIComponent(target.username || "postgres")}`,
        "[pgbouncer]",
        "listen_addr = 127.0.0.1",
        `listen_port = ${port}`,
        "unix_socket_dir =",
        "auth_type = any",
        "pool_mode = transaction",
        "ignore_startup_parameters = extra_float_digits",
        `default_pool_size = ${options.poolSize ?? 6}`,
        "max_client_conn = 1000",
        "",
      ].join("\n"),
      { mode: 0o644 },
    );
    const asRoot = process.getuid?.() === 0;
    const child = spawn(PGBOUNCER_BIN, [...(asRoot ? ["-u", "postgres"] : []), ini], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
    });
    child.stderr?.on("data", (d) => {
      out += d;
    });
    const started = await new Promise<"up" | "exited" | "missing">((resolve) => {
      const timer = setTimeout(() => resolve("exited"), 10_000);
      const check = () => {
        if (/process up/.test(out)) {
          clearTimeout(timer);
          resolve("up");
        }
      };
      child.stdout?.on("data", check);
      child.stderr?.on("data", check);
      child.once("error", () => {
        clearTimeout(timer);
        resolve("missing");
      });
      child.once("exit", () => {
        clearTimeout(timer);
        resolve("exited");
      });
    });
    if (started === "missing") {
      await rm(dir, { recursive: true, force: true });
      throw new Error(`PgBouncer is not installed at ${PGBOUNCER_BIN} (apt-get install -y pgbouncer; .ci/run does).`);
    }
    if (started === "up") return running(child, port, dir, () => out);
    child.kill("SIGKILL");
    // Another process took the free port between our probe and PgBouncer's bind: try another.
    if (attempt < 3 && /Address already in use/i.test(out)) {
      // A port asked for by number is taken until the killed process's socket is gone.
      if (options.port !== undefined) await new Promise((resolve) => setTimeout(resolve, 300));
      continue;
    }
    await rm(dir, { recursive: true, force: true });
    throw new Error(`PgBouncer did not start:\n${out}`);
  }
}

function running(child: ChildProcess, port: number, dir: string, output: () => string): PgBouncer {
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // A test process that dies without stopping it must not leave PgBouncer running.
  const orphaned = () => child.kill("SIGKILL");
  process.once("exit", orphaned);
  child.once("exit", () => process.off("exit", orphaned));
  return {
    port,
    pid: child.pid as number,
    through(url) {
      const u = new URL(url);
      u.hostname = "127.0.0.1";
      u.port = String(port);
      return u.toString();
    },
    output,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
      await exited;
      clearTimeout(timer);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
