// A/B in one run: `cairn serve` of another checkout (CAIRN_BENCH_BEFORE=<its apps/cli/dist/bin.cjs>)
// against this one, alternating rounds so neither gets the quieter machine.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { figure, QUICK } from "../lib.mjs";
import { loadCreate, loadGet } from "./http.mjs";
import { benchDatabase, CLI, cpuMs, machineCpuMs, postgresCpuMs, startListening } from "./procs.mjs";
import { createOne } from "./reads.mjs";
import { loadTraces } from "./traces.mjs";

/** What the A/B row loads both builds with: receipts (the `ab` row), 50-span traces (`ab-traces`) or one share page (`ab-share`). */
export const AB_WORKLOADS = {
  create: {
    rate: "receipts/s (c32)",
    unit: "req/s",
    per: "receipt",
    load: async (url, token, duration) => {
      const r = await loadCreate([url], token, { duration });
      return { perSecond: r.perSecond, ok: r.ok };
    },
  },
  traces: {
    rate: "spans/s (protobuf, c8, 50-span traces)",
    unit: "spans/s",
    per: "span",
    load: loadTraces,
  },
  share: {
    rate: "share page reads/s (c32)",
    unit: "req/s",
    per: "read",
    load: async (url, token, duration) => {
      const path = await sharePathOf(url, token);
      const r = await loadGet(url, path, { duration });
      return { perSecond: r.perSecond, ok: r.ok };
    },
  },
  read: {
    rate: "receipt reads/s (GET /v1/artifacts/:id, c32)",
    unit: "req/s",
    per: "read",
    load: async (url, token, duration) => {
      const path = `/v1/artifacts/${await receiptIdOf(url, token)}`;
      const r = await loadGet(url, path, { duration, headers: { authorization: `Bearer ${token}` } });
      return { perSecond: r.perSecond, ok: r.ok };
    },
  },
};

/** One receipt per server, made on the first load of the read workload: what its rounds read. */
const receiptIds = new Map();
async function receiptIdOf(url, token) {
  if (!receiptIds.has(url)) receiptIds.set(url, (await createOne({ url, token })).id);
  return receiptIds.get(url);
}

/** One receipt per server, made on the first load: its share page is what the rounds read. */
const sharePaths = new Map();
async function sharePathOf(url, token) {
  if (!sharePaths.has(url)) sharePaths.set(url, new URL((await createOne({ url, token })).url).pathname);
  return sharePaths.get(url);
}

async function start(cli, driver) {
  const db = await benchDatabase(driver);
  const env = { ...process.env, CAIRN_HOME: db.home, PORT: "0", HOST: "127.0.0.1" };
  delete env.DATABASE_URL;
  if (db.databaseUrl) env.DATABASE_URL = db.databaseUrl;
  const server = await startListening([cli, "serve"], env, cli);
  const token = JSON.parse(await readFile(join(db.home, "credentials"), "utf8")).token;
  return { ...server, db, token, runs: [] };
}

export async function benchAb(drivers, beforeCli, workload = AB_WORKLOADS.create) {
  const seconds = QUICK ? 3 : 6;
  for (const driver of drivers) {
    const sides = { before: await start(beforeCli, driver), now: await start(CLI, driver) };
    try {
      for (const s of Object.values(sides)) await workload.load(s.url, s.token, 2);
      for (let round = 0; round < (QUICK ? 2 : 4); round++) {
        for (const name of round % 2 ? ["now", "before"] : ["before", "now"]) {
          const s = sides[name];
          // A second of the same load first, unmeasured: a side measured right after the other
          // side starts on caches the other filled, and the order runs `now` right after itself
          // more often than `before` (an A/A run read 1.04–1.09× in spans/s without this).
          await workload.load(s.url, s.token, 1);
          const before = { server: await cpuMs(s.pid), db: await postgresCpuMs(), machine: await machineCpuMs() };
          const r = await workload.load(s.url, s.token, seconds);
          const per = (ms) => ms / Math.max(1, r.ok);
          s.runs.push({
            ...r,
            cpu: per((await cpuMs(s.pid)) - before.server),
            db: per((await postgresCpuMs()) - before.db),
            machine: per((await machineCpuMs()) - before.machine),
          });
        }
      }
      // Medians of the rounds: on shared cores a best-of hides how often a side was slow. With
      // an even count, the mean of the middle two: the rounds go before, now, now, before, …,
      // so under a machine that speeds up (or slows) through the run the two sides' middle
      // rounds sit equally early, where the upper middle one was always later for `now`
      // (an A/A run read 1.04×, 1.06×, 1.06× in spans/s).
      const median = (s, key) => {
        const values = s.runs.map((r) => r[key]).sort((a, b) => a - b);
        const mid = Math.floor(values.length / 2);
        return values.length % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
      };
      const best = (s) => median(s, "perSecond");
      // CAIRN_BENCH_ROUNDS=1: each side's rounds in order ([rate, server, PostgreSQL, machine CPU ms per unit]), to see the spread.
      if (process.env.CAIRN_BENCH_ROUNDS) {
        for (const [name, s] of Object.entries(sides)) {
          console.log(
            `rounds (${driver}, ${name}): ${JSON.stringify(s.runs.map((r) => [Math.round(r.perSecond), +r.cpu.toFixed(4), +r.db.toFixed(4), +r.machine.toFixed(4)]))}`,
          );
        }
      }
      const cpu = (s) => median(s, "cpu");
      figure({
        name: `A/B ${workload.rate} (${driver})`,
        value: best(sides.now),
        unit: workload.unit,
        baselineName: "the other checkout, same run",
        baseline: best(sides.before),
        higherIsBetter: true,
      });
      figure({
        name: `A/B server CPU ms/${workload.per} (${driver})`,
        value: cpu(sides.now),
        unit: "ms",
        baselineName: "the other checkout",
        baseline: cpu(sides.before),
      });
      // The embedded store runs inside the server: its database CPU is in the server's figure.
      if (driver === "pg") {
        figure({
          name: `A/B PostgreSQL CPU ms/${workload.per} (pg)`,
          value: median(sides.now, "db"),
          unit: "ms",
          baselineName: "the other checkout",
          baseline: median(sides.before, "db"),
        });
      }
      // Server, database and load generator together: what a 2-core machine runs out of first.
      figure({
        name: `A/B machine CPU ms/${workload.per} (${driver})`,
        value: median(sides.now, "machine"),
        unit: "ms",
        baselineName: "the other checkout",
        baseline: median(sides.before, "machine"),
      });
    } finally {
      for (const s of Object.values(sides)) {
        await s.stop();
        await s.db.dispose();
      }
    }
  }
}
