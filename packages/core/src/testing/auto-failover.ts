import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, chown, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort, PG_BIN, runAsPostgres } from "./throwaway-postgres.js";

/** Debian's `pg-auto-failover-cli` (with `postgresql-15-auto-failover`); CAIRN_PG_AUTOCTL points elsewhere. */
export const PG_AUTOCTL = process.env.CAIRN_PG_AUTOCTL ?? "/usr/bin/pg_autoctl";
export const autoFailoverInstalled = () => existsSync(PG_AUTOCTL) && existsSync(join(PG_BIN, "pg_ctl"));

export interface AutoFailoverNode {
  name: string;
  port: number;
  dataDir: string;
}

export interface AutoFailoverCluster {
  nodes: AutoFailoverNode[];
  /** Every node, libpq's way: `postgres://postgres@127.0.0.1:P1,127.0.0.1:P2/DB?target_session_attrs=read-write`. */
  url(database: string): string;
  /** The node that is primary now, asked of the nodes themselves. */
  primary(): Promise<AutoFailoverNode>;
  /** One statement on the primary of now, in `database`. */
  onPrimary<T = Record<string, unknown>>(database: string, text: string, params?: unknown[]): Promise<T[]>;
  /** `pg_autoctl perform failover`: the monitor's planned switch to the standby; resolves when it is done. */
  performFailover(): Promise<void>;
  /** `kill -9` of a node's postmaster (its keeper then deals with it, as it would with a crash). */
  killPostmaster(node: AutoFailoverNode): Promise<void>;
  /** Resolves once one node is primary and the other a streaming standby, as the monitor sees them. */
  settled(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A pg_auto_failover formation on loopback: a monitor and two PostgreSQL nodes, each on a
 * free port and in a temporary directory, trust auth, synchronous replication between the
 * pair (`number_sync_standbys 0`, the formation's default for two nodes: the standby is
 * `synchronous_standby_names = ANY 1 (…)` and `synchronous_commit` stays on). Every
 * process runs as the `postgres` user and is stopped by `stop()`.
 */
export async function startAutoFailover(): Promise<AutoFailoverCluster> {
  const dir = await mkdtemp(join(tmpdir(), "cairn-autofailover-"));
  await chmod(dir, 0o755);
  if (process.getuid?.() === 0) {
    const uid = Number((await runAsPostgres("id", ["-u"])).trim());
    const gid = Number((await runAsPostgres("id", ["-g"])).trim());
    await chown(dir, uid, gid);
  }
  const env = {
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    XDG_RUNTIME_DIR: join(dir, "run"),
    PG_CONFIG: join(PG_BIN, "pg_config"),
    PATH: `${PG_BIN}:/usr/bin:/bin`,
    PGHOST: "127.0.0.1",
  };
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  const autoctl = (args: string[], timeout = 60_000) => runAsPostgres("env", [...envArgs, PG_AUTOCTL, ...args], timeout);
  const services: ChildProcess[] = [];
  const service = (args: string[], log: string) => {
    const [cmd, argv] =
      process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", "env", ...envArgs, PG_AUTOCTL, ...args]] : ["env", [...envArgs, PG_AUTOCTL, ...args]];
    const child = spawn(cmd as string, argv as string[], { stdio: ["ignore", "ignore", "ignore"], detached: true });
    child.unref();
    services.push(child);
    return log;
  };

  const monitorDir = join(dir, "monitor");
  const nodes: AutoFailoverNode[] = [];
  const stop = async () => {
    for (const d of [...nodes.map((n) => n.dataDir), monitorDir]) await autoctl(["stop", "--pgdata", d, "--immediate"], 30_000).catch(() => {});
    for (const child of services) {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {}
    }
    for (const d of [...nodes.map((n) => n.dataDir), monitorDir])
      await runAsPostgres(join(PG_BIN, "pg_ctl"), ["stop", "-m", "immediate", "-D", d]).catch(() => {});
    await rm(dir, { recursive: true, force: true });
  };
  try {
    return await form();
  } catch (err) {
    await stop();
    throw err;
  }

  async function form(): Promise<AutoFailoverCluster> {
    const monitorPort = await freePort();
    service(
      ["create", "monitor", "--pgdata", monitorDir, "--pgport", String(monitorPort), "--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl", "--run"],
      "monitor",
    );
    const monitorUrl = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
    await until(async () => (await query(monitorUrl, "select count(*)::int as n from pgautofailover.formation")).length > 0, 60_000, "the monitor to start");

    for (const name of ["node1", "node2"]) {
      const node = { name, port: await freePort(), dataDir: join(dir, name) };
      nodes.push(node);
      service(
        [
          "create",
          "postgres",
          "--pgdata",
          node.dataDir,
          "--pgport",
          String(node.port),
          "--hostname",
          "127.0.0.1",
          "--name",
          name,
          "--auth",
          "trust",
          "--no-ssl",
          "--monitor",
          monitorUrl,
          "--run",
        ],
        name,
      );
      // One node at a time: the first becomes primary, the second is cloned from it.
      await until(
        async () =>
          (await states(monitorUrl)).filter((s) => s.reported === s.goal && ["single", "primary", "secondary"].includes(s.reported)).length === nodes.length,
        90_000,
        `${name} to join`,
      );
    }

    const cluster: AutoFailoverCluster = {
      nodes,
      url: (database) => `postgres://postgres@${nodes.map((n) => `127.0.0.1:${n.port}`).join(",")}/${database}?target_session_attrs=read-write`,
      async primary() {
        // Asked until one answers (a node busy replaying, or a slow machine, may miss one try).
        const started = Date.now();
        while (Date.now() - started < 30_000) {
          for (const node of nodes) {
            const rows = await query(`postgres://postgres@127.0.0.1:${node.port}/postgres`, "select pg_is_in_recovery() as r").catch(() => []);
            if (rows[0]?.r === false) return node;
          }
          await new Promise((r) => setTimeout(r, 250));
        }
        throw new Error("no node is primary");
      },
      async onPrimary(database, text, params = []) {
        const node = await cluster.primary();
        return (await query(`postgres://postgres@127.0.0.1:${node.port}/${database}`, text, params)) as never;
      },
      async performFailover() {
        await autoctl(["perform", "failover", "--pgdata", monitorDir, "--wait", "60"], 90_000);
      },
      async killPostmaster(node) {
        const pid = Number((await readFile(join(node.dataDir, "postmaster.pid"), "utf8")).split("\n")[0]);
        process.kill(pid, "SIGKILL");
      },
      async settled(timeoutMs = 60_000) {
        await until(
          async () => {
            const s = await states(monitorUrl);
            return (
              s.length === 2 && s.every((x) => x.reported === x.goal) && s.some((x) => x.reported === "primary") && s.some((x) => x.reported === "secondary")
            );
          },
          timeoutMs,
          "the formation to settle",
        );
      },
      stop,
    };
    return cluster;
  }
}

async function query(url: string, text: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    return (await client.query(text, params)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

async function states(monitorUrl: string): Promise<{ reported: string; goal: string }[]> {
  const rows = await query(monitorUrl, "select reportedstate::text as reported, goalstate::text as goal from pgautofailover.node").catch(() => []);
  return rows as { reported: string; goal: string }[];
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}
