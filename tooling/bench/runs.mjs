// pnpm bench, row `runs` (SPEC §28): with 100k runs seeded by SQL per store, run_list p50/p95
// through core without and with each filter (a run's totals read from its row, no query per
// row), the worst filter's p95 against 30 ms; on PostgreSQL each case's plan is printed
// (EXPLAIN ANALYZE) with CAIRN_BENCH_EXPLAIN=1. CAIRN_BENCH_RUNS_ROWS changes the size
// (default 100000, 20000 with CAIRN_BENCH_QUICK=1). Runs alone too: node tooling/bench/runs.mjs
import { fileURLToPath } from "node:url";
import { newId, openStore } from "@cairn/core";
import { createTestDatabase, createTestWorld } from "@cairn/core/testing";
import { printFigures, QUICK } from "./lib.mjs";
import { limitFigure, percentile } from "./limit.mjs";

const ROWS = Number(process.env.CAIRN_BENCH_RUNS_ROWS ?? (QUICK ? 20_000 : 100_000));
const RUNS = Number(process.env.CAIRN_BENCH_SEARCH_RUNS ?? (QUICK ? 20 : 200));
const WARMUP = QUICK ? 2 : 5;
const LIST_P95_MS = 30;
const DAY_MS = 86_400_000;
const AGENTS = ["planner", "writer", "reviewer", "triage", "deployer", "support", "research", "coder", "summarizer", "router"];
const MODELS = ["gpt-4o", "gpt-4o-mini", "claude-sonnet-4", "gemini-2.5-pro", "llama-3.3-70b"];
const TOKENS = ["laptop", "ci-bot", "agent-box"];

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * `count` runs over `owners` (round robin), spread over 180 days, written straight to the
 * runs table in batches of 5,000 as ingest would have left them: 80% ended, 10% with an
 * error, 1% named "needle-…", 2% calling a rare model, conversations of three runs.
 */
async function seedRuns(store, owners, count) {
  const r = rng(42);
  const now = Date.now();
  for (let start = 0; start < count; start += 5000) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + 5000); i++) {
      const created = new Date(now - 180 * DAY_MS + Math.floor((i / count) * 180 * DAY_MS));
      const agent = AGENTS[Math.floor(r() * AGENTS.length)];
      const ended = r() < 0.8;
      const spans = 1 + Math.floor(r() * 40);
      const errors = r() < 0.1 ? 1 + Math.floor(r() * 3) : 0;
      const model = r() < 0.02 ? "rare-model-x" : MODELS[Math.floor(r() * MODELS.length)];
      const duration = Math.floor(r() * 60_000);
      rows.push({
        id: newId("run", created),
        owner: owners[i % owners.length],
        name: i % 100 === 0 ? `needle-${agent}` : agent,
        provenance: { actor: { id: "tok", name: TOKENS[i % TOKENS.length], kind: "agent" }, on_behalf_of: "sam", model: null, surface: "rest" },
        created_at: created.toISOString(),
        trace_id: (BigInt(i) + 1n).toString(16).padStart(32, "0"),
        ended_at: ended ? new Date(created.getTime() + duration).toISOString() : null,
        span_count: spans,
        error_count: errors,
        input_tokens: spans * 120,
        output_tokens: spans * 12,
        models: [model],
        first_start_at: created.toISOString(),
        last_end_at: new Date(created.getTime() + duration).toISOString(),
        conversation_id: `conv-${Math.floor(i / (3 * owners.length))}-${i % owners.length}`,
      });
    }
    await store.query(
      `insert into runs (id, owner, name, provenance, created_at, trace_id, ended_at, span_count, error_count, input_tokens, output_tokens,
                         models, first_start_at, last_end_at, conversation_id)
       select id, owner, name, provenance, created_at, trace_id, ended_at, span_count, error_count, input_tokens, output_tokens,
              array(select json_array_elements_text(models)), first_start_at, last_end_at, conversation_id
         from json_to_recordset($1::json) as r(id text, owner text, name text, provenance json, created_at timestamptz, trace_id text,
              ended_at timestamptz, span_count int, error_count int, input_tokens bigint, output_tokens bigint, models json,
              first_start_at timestamptz, last_end_at timestamptz, conversation_id text)`,
      [JSON.stringify(rows)],
    );
  }
  await store.query("analyze runs");
}

export function runCases(owner) {
  const days = (n) => new Date(Date.now() - n * DAY_MS).toISOString();
  return [
    ["no filter", {}],
    ["q (1% match)", { q: "needle" }],
    ["agent", { agent: "planner" }],
    ["agent (token name)", { agent: "ci-bot" }],
    ["model (2% match)", { model: "rare-model-x" }],
    ["status=open", { status: "open" }],
    ["status=ended", { status: "ended" }],
    ["error=true", { error: true }],
    ["conversation", { conversation: "conv-100-0" }],
    ["since 7 days ago", { since: days(7) }],
    ["before 170 days ago", { before: days(170) }],
    ["owner", { owner }],
    ["error + model + since 30 days", { error: true, model: "rare-model-x", since: days(30) }],
  ];
}

async function timeCases(cases) {
  const times = cases.map(() => []);
  const items = cases.map(() => 0);
  for (let round = 0; round < RUNS + WARMUP; round++) {
    for (const [k, [, run]] of cases.entries()) {
      const started = performance.now();
      items[k] = await run();
      if (round >= WARMUP) times[k].push(performance.now() - started);
    }
  }
  return cases.map(([name], k) => {
    const sorted = times[k].sort((a, b) => a - b);
    return { name, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), items: items[k] };
  });
}

/** Each case's run_list statement under EXPLAIN ANALYZE (PostgreSQL), its plan printed. */
async function explainCases(store, cairn, ctx, cases) {
  for (const [name, input] of cases) {
    const plans = [];
    const explaining = {
      ...store,
      driver: store.driver,
      async query(text, params) {
        if (text.includes("from runs r")) {
          const plan = await store.query(`explain (analyze, buffers off, costs off, summary on) ${text}`, params);
          plans.push(plan.map((p) => p["QUERY PLAN"]).join("\n"));
        }
        return store.query(text, params);
      },
    };
    await cairn.invoke("run_list", { ...ctx, store: explaining }, input);
    console.log(`\n=== ${name} ${JSON.stringify(input)}\n${plans.join("\n")}`);
  }
}

export async function benchRuns(drivers) {
  const size = ROWS >= 1000 ? `${Math.round(ROWS / 1000)}k` : String(ROWS);
  for (const driver of drivers) {
    const db = await createTestDatabase(driver);
    const store = await openStore(driver === "pg" ? { databaseUrl: db.databaseUrl } : { dataDir: db.dataDir });
    try {
      const world = await createTestWorld(store);
      const sam = await world.user("sam");
      const eve = await world.user("eve");
      const team = await world.team([sam], "crew");
      // sam reads half: his runs and his team's; a stranger's half must never show.
      const owners = [`user:${sam.name}`, team, `user:${eve.name}`, `user:${eve.name}`];
      const t = performance.now();
      await seedRuns(store, owners, ROWS);
      console.log(`seeded ${ROWS} runs on ${driver} in ${((performance.now() - t) / 1000).toFixed(1)} s (the reader sees half)`);
      const ctx = sam.ctx();
      const raw = ["raw indexed page", async () => (await store.query("select id from runs where owner = $1 order by id desc limit 51", [owners[0]])).length];
      const cases = runCases(owners[1]).map(([name, input]) => [name, async () => (await world.cairn.invoke("run_list", ctx, input)).items.length]);
      const [base, ...results] = await timeCases([raw, ...cases]);
      console.log(`\nruns (${driver}, core run_list, limit 50, ${RUNS} runs)         p50 ms    p95 ms   items`);
      for (const r of [base, ...results])
        console.log(`${r.name.padEnd(44)} ${r.p50.toFixed(2).padStart(8)}  ${r.p95.toFixed(2).padStart(8)}  ${String(r.items).padStart(6)}`);
      for (const r of results)
        limitFigure({ name: `runs list p95 ${r.name} (${driver} ${size})`, value: r.p95, baselineName: "raw indexed page p95", baseline: base.p95 });
      const worst = results.reduce((a, b) => (b.p95 > a.p95 ? b : a));
      limitFigure({
        name: `runs list p95 worst filter (${driver} ${size})`,
        value: worst.p95,
        baselineName: "raw indexed page p95",
        baseline: base.p95,
        maxMs: LIST_P95_MS,
      });
      console.log(`(worst filter on ${driver}: ${worst.name})`);
      if (process.env.CAIRN_BENCH_EXPLAIN === "1") await explainCases(store, world.cairn, ctx, runCases(owners[1]));
    } finally {
      await store.close();
      await db.dispose();
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchRuns((process.env.CAIRN_BENCH_DRIVERS ?? "pg,pglite").split(","));
  process.exit(printFigures() ? 0 : 1);
}
