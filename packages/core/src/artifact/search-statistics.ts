import { defineJob } from "../events/jobs.js";
import type { Store } from "../store/port.js";

/**
 * Below this many rows the table is left unanalyzed. Statistics taken of a nearly empty
 * table mislead the planner as the table grows (ANALYZE of the empty table at install
 * made the embedded store's receipt writes 2.5× slower, 716 → 288 receipts/s in one run),
 * while a never-analyzed table is planned from its real size; and a small table's
 * searches are fast whatever the plan.
 */
export const ANALYZE_MIN_ROWS = 1_000;

/**
 * Whether the artifacts table holds at least ANALYZE_MIN_ROWS rows and has changed enough
 * since its last ANALYZE that PostgreSQL's autovacuum would analyze it again (its
 * defaults: 50 rows plus 10% of the table), or has never been analyzed. The write
 * counters are flushed lazily, so the pending ones are flushed first.
 */
export async function artifactsNeedAnalyze(store: Pick<Store, "query">): Promise<boolean> {
  await store.query("select pg_stat_force_next_flush()");
  const [row] = await store.query<{ due: boolean }>(
    `select coalesce(s.n_live_tup, 0) >= $1
            and (c.reltuples < 0 or coalesce(s.n_mod_since_analyze > 50 + 0.1 * c.reltuples, true)) as due
       from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
      where c.oid = 'artifacts'::regclass`,
    [ANALYZE_MIN_ROWS],
  );
  return row?.due ?? false;
}

/**
 * Search's plans rest on planner statistics (ADR 0026). On PostgreSQL autovacuum keeps
 * them current; the embedded store runs no autovacuum, so without this job an embedded
 * install is never analyzed and plans every search on default guesses — at 100k receipts
 * 0.3–0.6 s for `schema` or `human_action=none` instead of a few ms. Once a minute it
 * checks autovacuum's rule and analyzes artifacts when it holds; on PostgreSQL it does
 * nothing.
 *
 * The embedded store runs one statement at a time, so every request waits for the
 * ANALYZE. A sample of 3,000 rows (statistics target 10) rather than the default 30,000
 * takes it from about 1.6 s to 0.13 s at 100k receipts, and still sees every value the
 * filters ask about that is common enough to change a plan.
 */
export const searchStatisticsJob = defineJob({
  name: "artifacts.analyze",
  everyMs: 60_000,
  async run({ store }) {
    if (store.driver !== "pglite" || !(await artifactsNeedAnalyze(store))) return { count: 0 };
    await store.transaction(async (tx) => {
      await tx.query("set local default_statistics_target = 10");
      await tx.query("analyze artifacts");
    });
    return { count: 1 };
  },
});
