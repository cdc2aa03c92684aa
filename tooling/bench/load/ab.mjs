// A/B in one run: `cairn serve` of another checkout (CAIRN_BENCH_BEFORE=<its apps/cli/dist/bin.js>)
// against this one, alternating rounds so neither gets the quieter machine.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { figure, QUICK } from "../lib.mjs";
import { loadCreate } from "./http.mjs";
import { benchDatabase, CLI, cpuMs, startListening } from "./procs.mjs";

async function start(cli, driver) {
  const db = await benchDatabase(driver);
  const env = { ...process.env, CAIRN_HOME: db.home, PORT: "0", HOST: "127.0.0.1" };
  delete env.DATABASE_URL;
  if (db.databaseUrl) env.DATABASE_URL = db.databaseUrl;
  const server = await startListening([cli, "serve"], env, cli);
  const token = JSON.parse(await readFile(join(db.home, "credentials"), "utf8")).token;
  return { ...server, db, token, runs: [] };
}

export async function benchAb(drivers, beforeCli) {
  const seconds = QUICK ? 3 : 8;
  for (const driver of drivers) {
    const sides = { before: await start(beforeCli, driver), now: await start(CLI, driver) };
    try {
      for (const s of Object.values(sides)) await loadCreate([s.url], s.token, { duration: 2 });
      for (let round = 0; round < 3; round++) {
        for (const name of round % 2 ? ["now", "before"] : ["before", "now"]) {
          const s = sides[name];
          const cpu0 = await cpuMs(s.pid);
          const r = await loadCreate([s.url], s.token, { duration: seconds });
          s.runs.push({ ...r, cpu: ((await cpuMs(s.pid)) - cpu0) / Math.max(1, r.ok) });
        }
      }
      const best = (s) => Math.max(...s.runs.map((r) => r.perSecond));
      const cpu = (s) => Math.min(...s.runs.map((r) => r.cpu));
      figure({
        name: `A/B receipts/s (${driver}, c32)`,
        value: best(sides.now),
        unit: "req/s",
        baselineName: "the other checkout, same run",
        baseline: best(sides.before),
        higherIsBetter: true,
      });
      figure({
        name: `A/B server CPU ms/receipt (${driver})`,
        value: cpu(sides.now),
        unit: "ms",
        baselineName: "the other checkout",
        baseline: cpu(sides.before),
      });
    } finally {
      for (const s of Object.values(sides)) {
        await s.stop();
        await s.db.dispose();
      }
    }
  }
}
