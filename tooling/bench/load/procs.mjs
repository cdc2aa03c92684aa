// Processes under load: `cairn serve` and the ceiling server, each its own process, with RSS from /proc.
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase } from "@cairn/core/testing";

export const CLI = fileURLToPath(new URL("../../../apps/cli/dist/bin.cjs", import.meta.url));
const CEILING = fileURLToPath(new URL("./ceiling.mjs", import.meta.url));
const CEILING_WORK = fileURLToPath(new URL("./ceiling-work.mjs", import.meta.url));

/** Starts `node args` and resolves once it prints a http://127.0.0.1:PORT URL. */
export function startListening(args, env, name) {
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in 60 s:\n${out}`)), 60_000);
    const onData = (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        child.stdout.resume();
        resolve({ child, url: m[1], pid: child.pid, stop: () => stopChild(child) });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (d) => {
      out += d;
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited ${code}:\n${out}`));
    });
  });
}

export function stopChild(child) {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** A throwaway database for one row: a new PostgreSQL database or a fresh embedded directory. */
export async function benchDatabase(driver) {
  const db = await createTestDatabase(driver);
  const home = await mkdtemp(join(tmpdir(), "cairn-bench-home-"));
  if (driver === "pglite") await rename(db.dataDir, join(home, "pgdata"));
  return {
    driver,
    home,
    databaseUrl: db.databaseUrl,
    dataDir: join(home, "pgdata"),
    async dispose() {
      await rm(home, { recursive: true, force: true });
      if (driver === "pg") await db.dispose();
    },
  };
}

/** `cairn serve` on the database; resolves with its URL, the admin token and its pid. */
export async function startCairn(db, extraEnv = {}, nodeArgs = []) {
  const env = { ...process.env, CAIRN_HOME: db.home, PORT: "0", HOST: "127.0.0.1", ...extraEnv };
  delete env.DATABASE_URL;
  if (db.databaseUrl) env.DATABASE_URL = db.databaseUrl;
  const server = await startListening([...nodeArgs, CLI, "serve"], env, "cairn serve");
  const creds = JSON.parse(await readFile(join(db.home, "credentials"), "utf8"));
  return { ...server, token: creds.token };
}

/** The ceiling server on a database of the same kind (its own, so the two never share rows). */
export async function startCeiling(db) {
  return startListening([CEILING, db.driver, db.driver === "pg" ? db.databaseUrl : db.dataDir], process.env, "ceiling");
}

/** The same-work ceiling (ceiling-work.mjs) on its own database of the same kind, migrated as Cairn's. */
export async function startWorkCeiling(db) {
  return startListening([CEILING_WORK, db.driver, db.driver === "pg" ? db.databaseUrl : db.dataDir], process.env, "same-work ceiling");
}

/** Resident set size of a process in MB, from /proc. */
export async function rssMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (clock ticks of 10 ms). */
export async function cpuMs(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time every PostgreSQL process on this machine has used so far, in ms: the server the
 * bench talks to, for a figure per request. Only meaningful while nothing else uses it.
 * A backend that exits (a pool closing an idle connection mid-round) takes its time with
 * it, so each process's reaped children count too: the postmaster's hold every backend
 * that has ended.
 */
export async function postgresCpuMs() {
  let total = 0;
  for (const pid of await readdir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
    if (!stat.includes("(postgres)")) continue;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime, stime, then cutime, cstime: the children it has waited for.
    total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
  }
  return total;
}

/** Busy CPU time of the whole machine so far (user, nice, system, irq, softirq), in ms, from /proc/stat. */
export async function machineCpuMs() {
  const [user, nice, system, , , irq, softirq] = (await readFile("/proc/stat", "utf8")).split("\n")[0].split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq) * 10;
}
