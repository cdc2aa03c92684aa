import { describe, expect, it } from "vitest";
import { artifactsNeedAnalyze, searchStatisticsJob } from "../artifact/search-statistics.js";
import { readJobRuns, runDueJobs } from "../events/jobs.js";
import { JOBS } from "../runtime/job-list.js";
import { DRIVERS, fullReceipt } from "../testing/index.js";
import { useTestWorld } from "./helpers.js";

const ROWS = 2_000;

describe.each(DRIVERS)("search planner statistics on %s", (driver) => {
  const fx = useTestWorld(driver);

  /** ROWS receipts' worth of rows: 80% need no one, 40% pending, every one a receipt. */
  const seed = (owner: string) =>
    fx.store.query(
      `insert into artifacts (id, owner, title, share_type, body, checksum, metadata, provenance, share_token, expires_at, search)
       select 'art_stats_' || $1::text || '_' || g, $1::text, 'r' || g, 'markdown', 'b', 'c' || g,
              json_build_object('schema', 'cairn.receipt/v1',
                                'human_action', case when g % 5 = 0 then 'Approve ' || g else 'Nothing' end,
                                'outcome', json_build_object('status', case when g % 5 < 2 then 'pending' else 'measured' end)),
              '{}'::json, 'tok_stats_' || $1::text || '_' || g, now() + interval '1 day', to_tsvector('english', 'r' || g)
         from generate_series(1, $2::int) g`,
      [owner, ROWS],
    );

  /** The planner's row estimate for a filter on the whole table. */
  const estimate = async (where: string) => {
    const [row] = await fx.store.query<{ "QUERY PLAN": Array<{ Plan: { "Plan Rows": number } }> }>(
      `explain (format json) select id from artifacts where ${where}`,
    );
    return row?.["QUERY PLAN"][0]?.Plan["Plan Rows"] ?? 0;
  };
  const actual = async (where: string) => Number((await fx.store.query<{ n: string }>(`select count(*) as n from artifacts where ${where}`))[0]?.n);

  it("leaves a nearly empty table unanalyzed, so the planner goes by its real size as it fills", async () => {
    const [before] = await fx.store.query<{ reltuples: number }>("select reltuples from pg_class where oid = 'artifacts'::regclass");
    expect(before?.reltuples).toBe(-1); // the migration did not analyze an empty table
    await fx.world.cairn.invoke("receipt_create", (await fx.world.user()).ctx(), fullReceipt());
    expect(await artifactsNeedAnalyze(fx.store)).toBe(false);
  });

  it("the worker's job analyzes a changed table on the embedded store and leaves PostgreSQL to autovacuum", async () => {
    expect(JOBS).toContain(searchStatisticsJob);
    await seed("user:stats-job");
    const run = (at: Date) =>
      runDueJobs({ store: fx.store, config: fx.world.cairn.config, now: () => at, log: () => {}, signal: new AbortController().signal }, [searchStatisticsJob]);
    const lastCount = async () => (await readJobRuns(fx.store)).find((r) => r.name === "artifacts.analyze")?.last_count;

    expect(await run(new Date())).toEqual(["artifacts.analyze"]);
    if (driver !== "pglite") {
      expect(await lastCount()).toBe(0);
      return;
    }
    expect(await lastCount()).toBe(1);
    expect(await artifactsNeedAnalyze(fx.store)).toBe(false);
    // Analyzed: the planner now knows that most receipts need no one.
    expect(await estimate("metadata->>'human_action' = 'Nothing'")).toBeGreaterThan(ROWS * 0.4);
    // Nothing changed since: the next run a minute later does not analyze again.
    await run(new Date(Date.now() + 61_000));
    expect(await lastCount()).toBe(0);
  });

  it("after ANALYZE the planner knows how often each filter's value occurs, not a 0.5% guess", async () => {
    await seed("user:stats-estimates");
    await fx.store.query("analyze artifacts");
    for (const where of [
      "metadata->>'human_action' = 'Nothing'",
      "metadata->>'human_action' <> 'Nothing'",
      "metadata->'outcome'->>'status' = 'pending'",
      "metadata->>'schema' = 'cairn.receipt/v1'",
    ]) {
      const [guess, real] = [await estimate(where), await actual(where)];
      expect({ where, ratio: Math.round((guess / real) * 10) / 10 }).toEqual({ where, ratio: expect.toSatisfy((r: number) => r >= 0.5 && r <= 2) });
    }
  });
});
