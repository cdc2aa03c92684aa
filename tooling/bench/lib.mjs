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

/** CAIRN_BENCH_QUICK=1: shorter runs, for checking the harness rather than the numbers. */
export const QUICK = process.env.CAIRN_BENCH_QUICK === "1";

export const rows = [];
/** One figure (lower is better) against its baseline, printed at once as one JSON line. */
export function report(name, ms, baselineName, baselineMs, target) {
  const ratio = ms / baselineMs;
  rows.push({ name, ms, baselineName, baselineMs, ratio, target });
  console.log(
    JSON.stringify({
      figure: name,
      value: round(ms),
      unit: "ms",
      baseline: baselineName,
      baseline_value: round(baselineMs),
      ratio: round(ratio),
      target_max_ratio: target ?? null,
    }),
  );
}

const round = (n) => Math.round(n * 1000) / 1000;

export function printReport() {
  const fmt = (n) => n.toFixed(2).padStart(8);
  console.log("\nbenchmark                                   median ms   baseline                         median ms    ratio  target");
  for (const r of rows) {
    const verdict = r.target === undefined ? "" : r.ratio <= r.target ? `≤ ${r.target}× ok` : `> ${r.target}× MISSED`;
    console.log(`${r.name.padEnd(42)} ${fmt(r.ms)}   ${r.baselineName.padEnd(30)} ${fmt(r.baselineMs)} ${fmt(r.ratio)}×  ${verdict}`);
  }
  return rows.every((r) => r.target === undefined || r.ratio <= r.target);
}

/**
 * A figure with its own unit and direction (throughput: higher is better), printed as one
 * JSON line. `target` is the ratio to reach: at least it when `higherIsBetter`, else at most.
 */
export const figures = [];
export function figure({ name, value, unit, baselineName, baseline, target, higherIsBetter = false, extra = {} }) {
  const ratio = baseline ? value / baseline : null;
  const ok = target === undefined || ratio === null ? undefined : higherIsBetter ? ratio >= target : ratio <= target;
  const row = {
    figure: name,
    value: round(value),
    unit,
    baseline: baselineName,
    baseline_value: baseline === undefined ? null : round(baseline),
    ratio: ratio === null ? null : round(ratio),
    target: target === undefined ? null : `${higherIsBetter ? "≥" : "≤"} ${target}×`,
    ok: ok ?? null,
    ...extra,
  };
  figures.push(row);
  console.log(JSON.stringify(row));
  return row;
}

export function printFigures() {
  if (figures.length === 0) return true;
  const num = (n, w = 10) => (n === null ? "" : String(n < 100 ? n.toFixed(2) : Math.round(n))).padStart(w);
  console.log("\nfigure                                              value unit      baseline                              value    ratio  target");
  for (const f of figures) {
    const verdict = f.target === null ? "" : `${f.target} ${f.ok ? "ok" : "MISSED"}`;
    console.log(
      `${f.figure.padEnd(46)} ${num(f.value)} ${f.unit.padEnd(8)}  ${(f.baseline ?? "").padEnd(34)} ${num(f.baseline_value)} ${num(f.ratio, 8)}×  ${verdict}`,
    );
  }
  return figures.every((f) => f.ok !== false);
}
