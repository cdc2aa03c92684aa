// The query plans of search at 100k receipts on PostgreSQL, one per filter (ADR 0020).
// node tooling/bench/explain.mjs  (after pnpm build; needs PostgreSQL at CAIRN_TEST_PG_URL)
import { openStore } from "@cairn/core";
import { createTestDatabase, createTestWorld } from "@cairn/core/testing";
import { searchCases, seededWorld } from "./search-cases.mjs";

const db = await createTestDatabase("pg");
const store = await openStore({ databaseUrl: db.databaseUrl });
try {
  const { ctx, owners } = await seededWorld(store, createTestWorld, 100_000);
  const logged = [];
  const explaining = {
    ...store,
    driver: store.driver,
    async query(text, params) {
      if (text.includes("cross join lateral") || text.includes("a.id = any(array(")) {
        const plan = await store.query(`explain (analyze, buffers off, costs off, timing off, summary on) ${text}`, params);
        logged.push(plan.map((r) => r["QUERY PLAN"]).join("\n"));
      }
      return store.query(text, params);
    },
  };
  for (const [name, input] of searchCases(owners[0])) {
    logged.length = 0;
    await ctx.cairn.invoke("artifact_search", { ...ctx.ctx, store: explaining }, input);
    console.log(`\n=== ${name} ${JSON.stringify(input)}\n${logged.join("\n")}`);
  }
} finally {
  await store.close();
  await db.dispose();
}
