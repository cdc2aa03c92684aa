import { spawnSync } from "node:child_process";

/** Median wall time in ms of `runs` calls of fn, after `warmup` unmeasured calls. */
export async function medianMs(fn, { runs = 200, warmup = 20 } = {}) {
  for (let i = 0; i < warmup; i++) await fn(i);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(warmup + i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export function medianSpawnMs(args, { runs = 15, env = process.env } = {}) {
  const times = [];
  for (let i = 0; i < runs + 2; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, args, { env, stdio: "ignore" });
    if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}`);
    if (i >= 2) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export const rows = [];
export function report(name, ms, baselineName, baselineMs, target) {
  const ratio = ms / baselineMs;
  rows.push({ name, ms, baselineName, baselineMs, ratio, target });
}

export function printReport() {
  const fmt = (n) => n.toFixed(2).padStart(8);
  console.log("\nbenchmark                                   median ms   baseline                         median ms    ratio  target");
  for (const r of rows) {
    const verdict = r.target === undefined ? "" : r.ratio <= r.target ? `≤ ${r.target}× ok` : `> ${r.target}× MISSED`;
    console.log(`${r.name.padEnd(42)} ${fmt(r.ms)}   ${r.baselineName.padEnd(30)} ${fmt(r.baselineMs)} ${fmt(r.ratio)}×  ${verdict}`);
  }
  return rows.every((r) => r.target === undefined || r.ratio <= r.target);
}
