// Scale row (SPEC §23): POST /v1/receipts with 1, 2 and 4 `cairn serve` (each beside a
// `cairn worker`) over one PostgreSQL, straight to it and through PgBouncer in transaction
// mode, every figure against the same run's single process straight to PostgreSQL. Where
// the two cores go at each step (load generator, Cairn's processes, PgBouncer, the
// database's backends, everything else on the machine) is read from /proc.
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { PG_ADMIN_URL, startPgBouncer } from "@cairn/core/testing";
import pg from "pg";
import { figure, QUICK } from "../lib.mjs";
import { loadCreate } from "./http.mjs";
import { benchDatabase, CLI, cpuMs, startCairn, stopChild } from "./procs.mjs";

const DURATION = QUICK ? 2 : 5;
const WARMUP = QUICK ? 1 : 2;
/** Measured rounds per step and way, alternating the two ways; the median round is reported. */
const ROUNDS = QUICK ? 1 : 3;
const STEPS = [1, 2, 4];
const CONNECTIONS = 32;
/** PgBouncer's server connections for the one database: several per core, far fewer than the clients' pools. */
const POOL_SIZE = 10;
const round2 = (n) => Math.round(n * 100) / 100;

/** Starts `cairn worker` and resolves once it says it is running. */
function startWorker(env) {
  const child = spawn(process.execPath, [CLI, "worker"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cairn worker did not start in 60 s:\n${out}`)), 60_000);
    const onData = (d) => {
      out += d;
      if (out.includes("Worker running")) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        child.stdout.resume();
        child.stderr.resume();
        resolve({ pid: child.pid, stop: () => stopChild(child) });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (d) => {
      out += d;
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`cairn worker exited ${code}:\n${out}`));
    });
  });
}

async function machineMs() {
  const [cpu] = (await readFile("/proc/stat", "utf8")).split("\n");
  const ticks = cpu.split(/\s+/).slice(1).map(Number);
  const idle = ticks[3] + ticks[4];
  const total = ticks.slice(0, 8).reduce((s, v) => s + v, 0);
  return { busy: (total - idle) * 10, total: total * 10 };
}

/** CPU ms of the given pids, skipping any that exited. */
async function cpuOf(pids) {
  const values = await Promise.all(pids.map((pid) => cpuMs(pid).catch(() => 0)));
  return values.reduce((s, v) => s + v, 0);
}

/** CPU ms per pid, so backends that start during a run count from zero. */
async function cpuByPid(pids) {
  return new Map(await Promise.all(pids.map(async (pid) => [pid, await cpuMs(pid).catch(() => 0)])));
}

/** One way of reaching the database (direct or through PgBouncer) and the processes started on it. */
async function openMode(name) {
  const db = await benchDatabase("pg");
  const dbName = new URL(db.databaseUrl).pathname.slice(1);
  const bouncer = name === "pgbouncer" ? await startPgBouncer({ target: PG_ADMIN_URL, poolSize: POOL_SIZE }) : undefined;
  const url = bouncer ? bouncer.through(db.databaseUrl) : db.databaseUrl;
  const servers = [];
  const workers = [];
  // One CAIRN_HOME for all: on PostgreSQL it only holds the first start's admin credentials.
  const served = { ...db, databaseUrl: url };
  const mode = {
    name,
    dbName,
    servers,
    bouncerPids: bouncer ? [bouncer.pid] : [],
    /** Grows to n servers and n workers (the first server migrates, over the direct URL behind PgBouncer). */
    async grow(n) {
      if (servers.length === 0) servers.push(await startCairn(served, bouncer ? { CAIRN_MIGRATE_URL: db.databaseUrl } : {}));
      while (servers.length < n) servers.push(await startCairn(served));
      while (workers.length < n) workers.push(await startWorker({ ...process.env, CAIRN_HOME: db.home, DATABASE_URL: url }));
    },
    pids: () => [...servers, ...workers].map((p) => p.pid),
    async close() {
      for (const p of [...workers, ...servers].reverse()) await p.stop();
      await bouncer?.stop();
      await db.dispose();
    },
  };
  return mode;
}

/** Backends of PostgreSQL serving one database, and how many there are. */
async function backendsOf(admin, dbName) {
  const rows = (await admin.query("select pid from pg_stat_activity where datname = $1", [dbName])).rows;
  return rows.map((r) => r.pid);
}

/** One measured load run on the first n servers of a mode, with where the CPU went. */
async function measure(admin, mode, n) {
  const urls = mode.servers.slice(0, n).map((s) => s.url);
  const token = mode.servers[0].token;
  const pids = mode.pids();
  const before = {
    machine: await machineMs(),
    cairn: await cpuOf(pids),
    bouncer: await cpuOf(mode.bouncerPids),
    db: await cpuByPid(await backendsOf(admin, mode.dbName)),
    load: process.cpuUsage(),
  };
  const started = performance.now();
  const result = await loadCreate(urls, token, { connections: CONNECTIONS, duration: DURATION });
  const wall = performance.now() - started;
  const machine = await machineMs();
  const load = process.cpuUsage(before.load);
  const ms = {
    load: (load.user + load.system) / 1000,
    cairn: (await cpuOf(pids)) - before.cairn,
    pgbouncer: (await cpuOf(mode.bouncerPids)) - before.bouncer,
    postgres: [...(await cpuByPid(await backendsOf(admin, mode.dbName)))].reduce((sum, [pid, ms]) => sum + ms - (before.db.get(pid) ?? 0), 0),
    machine: machine.busy - before.machine.busy,
  };
  // Percent of one core over the run; the machine has two (200%).
  const cpu = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, Math.round((v / wall) * 100)]));
  cpu.others = Math.max(0, cpu.machine - cpu.load - cpu.cairn - cpu.pgbouncer - cpu.postgres);
  const served = Math.max(1, result.ok);
  const perReceipt = { cairn: round2(ms.cairn / served), postgres: round2(ms.postgres / served), pgbouncer: round2(ms.pgbouncer / served) };
  // Receipts per CPU-second of the whole stack (load, Cairn, PgBouncer, PostgreSQL): what is
  // left of a figure when other work on the machine takes cores away.
  const perStackSecond = Math.round(served / ((ms.load + ms.cairn + ms.pgbouncer + ms.postgres) / 1000));
  const connections = (await backendsOf(admin, mode.dbName)).length; // still open after the run
  if (result.bad > 0) throw new Error(`${mode.name}, ${n} servers: ${result.bad} non-2xx or errors under load`);
  return { ...result, cpu, perReceipt, perStackSecond, connections };
}

const loadAverage = async () => (await readFile("/proc/loadavg", "utf8")).split(" ").slice(0, 3).join(" ");

export async function benchScale() {
  console.log(`load average before: ${await loadAverage()} (${new Date().toISOString()})`);
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  const modes = [await openMode("direct"), await openMode("pgbouncer")];
  const results = [];
  try {
    for (const n of STEPS) {
      for (const mode of modes) {
        await mode.grow(n);
        await loadCreate(
          mode.servers.slice(0, n).map((s) => s.url),
          mode.servers[0].token,
          { connections: CONNECTIONS, duration: WARMUP },
        );
      }
      // Short rounds, alternating which way goes first, so a busy second on a shared
      // machine lands on both; the median round of each way is its figure.
      const rounds = { direct: [], pgbouncer: [] };
      for (let r = 0; r < ROUNDS; r++) {
        for (const mode of r % 2 === 0 ? modes : [...modes].reverse()) {
          const m = await measure(admin, mode, n);
          rounds[mode.name].push(m);
          console.log(JSON.stringify({ scale: mode.name, servers: n, workers: n, round: r + 1, ...m }));
        }
      }
      for (const mode of modes) {
        const sorted = rounds[mode.name].sort((a, b) => a.perSecond - b.perSecond);
        results.push({ mode: mode.name, n, ...sorted[Math.floor(sorted.length / 2)] });
      }
    }
  } finally {
    for (const mode of modes) await mode.close();
    await admin.end();
  }
  const base = results.find((r) => r.mode === "direct" && r.n === 1);
  const baselineName = "1× cairn serve, direct, same run";
  for (const r of results) {
    if (r === base) continue;
    const label = `${r.n}× serve+worker, ${r.mode}`;
    figure({ name: `${label} receipts/s`, value: r.perSecond, unit: "req/s", baselineName, baseline: base.perSecond, higherIsBetter: true });
    figure({ name: `${label} p99`, value: r.p99, unit: "ms", baselineName: "1× direct p99", baseline: base.p99 });
    figure({
      name: `${label} receipts per stack CPU-s`,
      value: r.perStackSecond,
      unit: "req/cpu-s",
      baselineName: "1× direct",
      baseline: base.perStackSecond,
      higherIsBetter: true,
    });
  }
  console.log(`load average after: ${await loadAverage()} (${new Date().toISOString()})`);
  console.log(
    "\n| processes | via | receipts/s | × 1 direct | p50 ms | p99 ms | server conns | CPU ms/receipt: cairn · postgres · pgbouncer | receipts per stack CPU-s | CPU % of one core: load · cairn · pgbouncer · postgres · others (machine) |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const r of results) {
    const c = r.cpu;
    const p = r.perReceipt;
    console.log(
      `| ${r.n} serve + ${r.n} worker | ${r.mode} | ${Math.round(r.perSecond)} | ${(r.perSecond / base.perSecond).toFixed(2)}× | ${r.p50} | ${r.p99} | ${r.connections} | ${p.cairn} · ${p.postgres} · ${p.pgbouncer} | ${r.perStackSecond} | ${c.load} · ${c.cairn} · ${c.pgbouncer} · ${c.postgres} · ${c.others} (${c.machine}) |`,
    );
  }
}
