import type { z } from "zod";
import { ARTIFACT_COLUMNS, type ArtifactRow, toArtifacts } from "../artifact/internal.js";
import type { ServiceContext } from "../context.js";
import { LIMITS } from "../limits.js";
import { humanActionText } from "./format.js";
import { ARTIFACT_ID, decodeCursor, encodeCursor, ISO_TIME, ownersOf } from "./internal.js";
import { dueAtSql, isPendingSql, OUTCOME_STATES, type OutcomeState, outcomeStateSql, unexpiredSql } from "./rules.js";
import type { OutcomeList, OutcomesListInput } from "./schemas.js";

type OutcomeRow = ArtifactRow & { outcome_state: OutcomeState; due_at: Date | string; measure_at: string };

/**
 * outcomes_list: pending receipts of the owners the caller acts for, the one due first at
 * the top (keyset on due time, then id). `overdue` is the default; the state comes from
 * the one rule in rules.ts.
 */
export async function listOutcomes(ctx: ServiceContext, input: z.output<typeof OutcomesListInput>): Promise<z.output<typeof OutcomeList>> {
  const owners = ownersOf(ctx.principal, input.owner, "list outcomes");
  const states: readonly OutcomeState[] = input.state === "all" ? OUTCOME_STATES : [input.state];
  const limit = input.limit ?? LIMITS.pageDefault;
  const [afterDue, afterId] = input.cursor ? decodeCursor(input.cursor, [ISO_TIME, ARTIFACT_ID]) : [null, null];
  const now = ctx.now();
  // No subquery: the filters sit beside the keyset condition, so the pending-due index
  // gives the order and the scan stops after one page.
  const due = dueAtSql("a");
  const rows = await ctx.store.query<OutcomeRow>(
    `select ${ARTIFACT_COLUMNS}, ${outcomeStateSql("a", "$2")} as outcome_state, ${due} as due_at,
            a.metadata->'outcome'->>'measure_at' as measure_at
       from artifacts a
      where a.owner in (select jsonb_array_elements_text($1::jsonb)) and ${isPendingSql("a")} and ${unexpiredSql("a", "$2")}
        and ${outcomeStateSql("a", "$2")} = any(string_to_array($3::text, ','))
        and ($4::timestamptz is null or (${due}, a.id) > ($4::timestamptz, $5::text))
      order by ${due}, a.id limit $6`,
    [JSON.stringify(owners), now.toISOString(), states.join(","), afterDue ?? null, afterId ?? null, limit + 1],
  );
  const page = rows.slice(0, limit);
  const receipts = await toArtifacts(ctx.store, ctx.config, { kind: "principal", principal: ctx.principal }, page);
  const items = page.map((row, i) => ({
    id: row.id,
    state: row.outcome_state,
    measure_at: row.measure_at,
    due_at: new Date(row.due_at).toISOString(),
    human_action: humanActionText(row.metadata).action,
    receipt: receipts[i] as (typeof receipts)[number],
  }));
  const last = items.at(-1);
  return { items, next_cursor: rows.length > limit && last ? encodeCursor([last.due_at, last.id]) : null };
}
