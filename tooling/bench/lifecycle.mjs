// pnpm bench (lifecycle rows): on PostgreSQL with 100k seeded receipts — search p50/p95
// without and with each filter, and export throughput and peak RSS per format.
// CAIRN_BENCH_ROWS changes the size (default 100000).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { openStore } from "@cairn/core";
import { createTestDatabase, createTestWorld } from "@cairn/core/testing";
import { searchCases, seededWorld } from "./search-cases.mjs";

const ROWS = Number(process.env.CAIRN_BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.CAIRN_BENCH_SEARCH_RUNS ?? 100);
const CHILD = fileURLToPath(new URL("./export-child.mjs", import.meta.url));

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

const db = await createTestDatabase("pg");
const store = await openStore({ databaseUrl: db.databaseUrl });
try {
  const t = performance.now();
  const { ctx, owners, sam } = await seededWorld(store, createTestWorld, ROWS);
  console.log(`seeded ${ROWS} receipts on PostgreSQL in ${((performance.now() - t) / 1000).toFixed(1)} s (${owners.length} owners; the reader sees half)`);

  console.log("\nsearch (core artifact_search, limit 50)        p50 ms    p95 ms   items");
  for (const [name, input] of searchCases(owners[0])) {
    const times = [];
    let items = 0;
    for (let i = 0; i < RUNS + 5; i++) {
      const started = performance.now();
      const page = await ctx.cairn.invoke("artifact_search", ctx.ctx, input);
      if (i >= 5) times.push(performance.now() - started);
      items = page.items.length;
    }
    times.sort((a, b) => a - b);
    console.log(`${name.padEnd(44)} ${percentile(times, 0.5).toFixed(2).padStart(8)}  ${percentile(times, 0.95).toFixed(2).padStart(8)}  ${String(items).padStart(6)}`);
  }

  console.log("\nexport (REST stream, fresh process)   lines    receipts/s   peak RSS MB   streamed MB");
  for (const format of ["ndjson", "in-toto"]) {
    const run = spawnSync(process.execPath, [CHILD, db.databaseUrl, sam.token, format], { encoding: "utf8", maxBuffer: 1 << 20 });
    if (run.status !== 0) throw new Error(`export child failed: ${run.stderr}`);
    const r = JSON.parse(run.stdout.trim().split("\n").at(-1));
    console.log(`${format.padEnd(36)} ${String(r.lines).padStart(7)} ${r.perSecond.toFixed(0).padStart(12)} ${r.peakRssMb.toFixed(0).padStart(13)} ${(r.bytes / 2 ** 20).toFixed(0).padStart(13)}`);
  }
} finally {
  await store.close();
  await db.dispose();
}
