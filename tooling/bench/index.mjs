// pnpm bench: every row, each figure printed as one JSON line with its baseline from the same
// run, then a summary table. CAIRN_BENCH_ONLY=create,cli picks rows; CAIRN_BENCH_QUICK=1 shortens them;
// CAIRN_BENCH_DRIVERS=pg narrows the stores. Never part of `pnpm test`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { printFigures } from "./lib.mjs";
import { benchSearch } from "./lifecycle.mjs";
import { AB_WORKLOADS, benchAb } from "./load/ab.mjs";
import { benchCreate, benchCreateWebhook } from "./load/create.mjs";
import { benchDecide } from "./load/decide.mjs";
import { benchNotify } from "./load/notify.mjs";
import { benchCli, benchShare, benchSoak } from "./load/reads.mjs";
import { benchScale } from "./load/scale.mjs";
import { benchTraces, benchTracesAmplified } from "./load/traces.mjs";
import { benchRuns } from "./runs.mjs";
import { benchDelivery, benchFairness } from "./webhooks.mjs";

const drivers = (process.env.CAIRN_BENCH_DRIVERS ?? "pg,pglite").split(",");
const script = (name) => () => {
  const path = fileURLToPath(new URL(name, import.meta.url));
  if (!existsSync(path)) return console.log(`(${name} is not in this tree; row skipped)`);
  const r = spawnSync(process.execPath, [path], { stdio: "inherit" });
  if (r.status !== 0) failed.push(name);
};

const ROWS = {
  /** In-process figures per operation (core, REST, MCP, gates, the outbox's cost) against raw inserts: run.mjs. */
  micro: script("./run.mjs"),
  /** Search p95 per filter at 100k seeded receipts, the worst ≤ 30 ms; export throughput (pg): lifecycle.mjs. */
  search: () => benchSearch(drivers),
  /** run_list p95 per filter at 100k seeded runs, the worst ≤ 30 ms (SPEC §28): runs.mjs. */
  runs: () => benchRuns(drivers),
  /** Webhook create → delivery p50/p95 through `cairn serve`, quiet (p95 ≤ 250 ms) and under writes: webhooks.mjs. */
  delivery: () => benchDelivery(drivers),
  /** Another owner's delivery while one receiver hangs with 16 queued, ≤ 3 s (SPEC §19): webhooks.mjs. */
  fairness: () => benchFairness(drivers),
  create: () => benchCreate(drivers),
  webhook: async () => {
    const testing = await import("@cairn/core/testing");
    if (!testing.startReceiver) return console.log("(no webhook subscriptions in this tree; row skipped)");
    await benchCreateWebhook(drivers, testing);
  },
  /** POST /v1/receipts to a team whose members have 3 channels each, against members without (same run): load/notify.mjs. */
  notify: async () => benchNotify(drivers, await import("@cairn/core/testing")),
  share: () => benchShare(drivers),
  /** Decide → a waiting agent p95 on one `cairn serve` and across two behind PgBouncer, and queries/s with 1,000 idle waiters (SPEC §38): load/decide.mjs. */
  decide: () => benchDecide(),
  /** OTLP spans/s through POST /v1/traces (protobuf) against a bare hono handler decoding the same requests: load/traces.mjs. */
  traces: () => benchTraces(drivers),
  /** Issue 31's amplified OTLP request (7 × 15,000-char resource, 1,000 spans) vs the same with short attributes: wall, server CPU, peak RSS. */
  "traces-amplified": () => benchTracesAmplified(drivers),
  cli: () => benchCli(),
  /** 1, 2 and 4 `cairn serve` + `cairn worker` over one PostgreSQL, direct and through PgBouncer: load/scale.mjs. */
  scale: () => benchScale(),
  /** Only with CAIRN_BENCH_BEFORE=<another checkout's apps/cli/dist/bin.cjs>: that build against this one. */
  ab: () =>
    process.env.CAIRN_BENCH_BEFORE
      ? benchAb(drivers, process.env.CAIRN_BENCH_BEFORE)
      : console.log("(set CAIRN_BENCH_BEFORE to compare another build; row skipped)"),
  /** The same A/B under the traces load. */
  "ab-traces": () =>
    process.env.CAIRN_BENCH_BEFORE
      ? benchAb(drivers, process.env.CAIRN_BENCH_BEFORE, AB_WORKLOADS.traces)
      : console.log("(set CAIRN_BENCH_BEFORE to compare another build; row skipped)"),
  /** The same A/B reading one share page. */
  "ab-share": () =>
    process.env.CAIRN_BENCH_BEFORE
      ? benchAb(drivers, process.env.CAIRN_BENCH_BEFORE, AB_WORKLOADS.share)
      : console.log("(set CAIRN_BENCH_BEFORE to compare another build; row skipped)"),
  /** The same A/B reading one receipt by id, as `cairn read` and the card page do. */
  "ab-read": () =>
    process.env.CAIRN_BENCH_BEFORE
      ? benchAb(drivers, process.env.CAIRN_BENCH_BEFORE, AB_WORKLOADS.read)
      : console.log("(set CAIRN_BENCH_BEFORE to compare another build; row skipped)"),
  soak: () => benchSoak(drivers.filter((d) => d === "pg" || process.env.CAIRN_BENCH_SOAK_PGLITE === "1")),
};

const only =
  process.env.CAIRN_BENCH_ONLY?.split(",").map((s) => s.trim()) ?? Object.keys(ROWS).filter((r) => !r.startsWith("ab") || process.env.CAIRN_BENCH_BEFORE);
const unknown = only.filter((r) => !(r in ROWS));
if (unknown.length) {
  console.error(`unknown bench rows: ${unknown.join(", ")} (rows: ${Object.keys(ROWS).join(", ")})`);
  process.exit(2);
}
const failed = [];
for (const row of only) {
  console.log(`\n## ${row}`);
  await ROWS[row]();
}
const ok = printFigures();
if (failed.length) console.log(`\nfailed: ${failed.join(", ")}`);
process.exit(ok && failed.length === 0 ? 0 : 1);
