import type { Migration } from "./types.js";

/**
 * Planner statistics for the search filters' JSON expressions (ADR 0026).
 *
 * PostgreSQL keeps statistics for an index's expressions, but the planner ignores those
 * of a partial index, and every filter index of 0008 is partial. Without them
 * `metadata->>'human_action' = 'Nothing'` (80% of receipts) and an outcome status are
 * guessed at 0.5% of rows: the planner then expects a handful of matches and picks "fetch
 * them all and sort" over "walk the owner's ids in order and stop after a page", which
 * at 100k receipts was 50–80 ms for `human_action=none` and `outcome=overdue` instead of
 * under a millisecond. A statistics object per expression gives it the real frequencies;
 * it costs nothing on insert, only on ANALYZE. The analyze here fills them for rows that
 * already exist (it samples, so it stays short on a large table), and only when there
 * are at least 1,000: statistics of an empty table mislead the planner as it fills (see
 * ANALYZE_MIN_ROWS in artifact/search-statistics.ts).
 */
export const searchStatistics: Migration = {
  version: "0011_search_statistics",
  sql: `
    create statistics if not exists artifacts_human_action_stats on ((metadata->>'human_action')) from artifacts;
    create statistics if not exists artifacts_outcome_status_stats on ((metadata->'outcome'->>'status')) from artifacts;
    create statistics if not exists artifacts_schema_stats on ((metadata->>'schema')) from artifacts;
    do $$ begin
      if (select count(*) from (select 1 from artifacts limit 1000) enough) >= 1000 then analyze artifacts; end if;
    end $$;
  `,
};
