import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { visibleOwners } from "../identity/authorize.js";
import { resolveOwner } from "../identity/owner.js";
import { LIMITS } from "../limits.js";
import type { RunList, RunListInput, RunSummary } from "./schemas.js";

interface SummaryRow {
  id: string;
  owner: string;
  name: string;
  trace_id: string | null;
  created_at: Date | string;
  closed_at: Date | string | null;
  span_count: number;
  error_count: number;
}

const iso = (v: Date | string) => new Date(v).toISOString();

/** `%`, `_` and `\` match themselves in a name search. */
const likeEscaped = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * run_list: the runs of the owners the caller acts for (or one of them), newest first.
 * Run ids are time-ordered, so the page walks runs_owner_id_idx and the cursor is the
 * last id. `q` matches a name by substring or a trace id exactly (what a person pastes
 * from their tracing tool).
 */
export async function listRuns(ctx: ServiceContext, input: z.output<typeof RunListInput>): Promise<z.output<typeof RunList>> {
  const owners = input.owner !== undefined ? [resolveOwner(ctx.principal, input.owner, "list runs")] : visibleOwners(ctx.principal);
  const limit = input.limit ?? LIMITS.pageDefault;
  const q = input.q === undefined || input.q === "" ? null : input.q;
  const rows = await ctx.store.query<SummaryRow>(
    `select r.id, r.owner, r.name, r.trace_id, r.created_at, r.closed_at,
            (select count(*)::int from spans s where s.run_id = r.id) as span_count,
            (select count(*)::int from spans s where s.run_id = r.id and s.status->>'code' = 'error') as error_count
       from runs r
      where r.owner in (select jsonb_array_elements_text($1::jsonb))
        and ($2::text is null or r.id < $2::text)
        and ($3::text is null or r.name ilike '%' || $4::text || '%' or r.trace_id = lower($3::text))
      order by r.id desc limit $5`,
    [JSON.stringify(owners), input.cursor ? decodeCursor(input.cursor, "run") : null, q, q === null ? null : likeEscaped(q), limit + 1],
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(toSummary), next_cursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}

const toSummary = (r: SummaryRow): RunSummary => ({
  id: r.id,
  name: r.name,
  owner: r.owner,
  status: r.closed_at === null ? "open" : "closed",
  trace_id: r.trace_id,
  span_count: r.span_count,
  error_count: r.error_count,
  created_at: iso(r.created_at),
  closed_at: r.closed_at === null ? null : iso(r.closed_at),
});
