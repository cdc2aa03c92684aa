import type { z } from "zod";
import { Conditions } from "../artifact/search-filters.js";
import type { ServiceContext } from "../context.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { resolveInstant } from "../dates.js";
import { visibleOwners } from "../identity/authorize.js";
import { resolveOwner } from "../identity/owner.js";
import { idFloorAt } from "../ids.js";
import { LIMITS } from "../limits.js";
import { RUN_COLUMNS, type RunRow, runInErrorSql, runStatusSql, totalsOf } from "./internal.js";
import type { RunList, RunListInput, RunSummary } from "./schemas.js";

const iso = (v: Date | string) => new Date(v).toISOString();

/** `%`, `_` and `\` match themselves in a name search. */
const likeEscaped = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

type Input = z.output<typeof RunListInput>;
type ListRow = Omit<RunRow, "provenance">;

/** The run row as a list shows it: everything but provenance (a list item has none; JSON costs to read). */
const LIST_COLUMNS = RUN_COLUMNS.split(", ")
  .filter((c) => c !== "provenance")
  .map((c) => `r.${c}`)
  .join(", ");

/**
 * The run filters as SQL over `runs r`, AND-combined (SPEC §28). Each is served by an
 * owner-led index of migrations 0003/0020 walked newest first (ADR 0045): `since` and
 * `before` are bounds on the time-ordered id itself.
 */
export function addRunFilters(where: Conditions, input: Input, now: Date): void {
  const q = input.q === undefined || input.q === "" ? null : input.q;
  if (q !== null) {
    where.add(`(r.name ilike '%' || ${where.param(likeEscaped(q))}::text || '%' or r.trace_id = lower(${where.param(q)}::text))`);
  }
  if (input.agent !== undefined) {
    const agent = where.param(input.agent);
    where.add(`(r.name = ${agent}::text or (r.provenance -> 'actor' ->> 'name') = ${agent}::text)`);
  }
  if (input.model !== undefined) where.add(`r.models @> array[${where.param(input.model)}::text]`);
  if (input.status !== undefined) where.add(runStatusSql("r", input.status));
  if (input.error !== undefined) where.add(runInErrorSql("r", input.error === true || input.error === "true"));
  if (input.conversation !== undefined) where.add(`r.conversation_id = ${where.param(input.conversation)}::text`);
  // A run's id begins with its creation millisecond, the instant of its created_at.
  if (input.since !== undefined) where.add(`r.id >= ${where.param(idFloorAt(resolveInstant(input.since, now), "run"))}::text`);
  if (input.before !== undefined) where.add(`r.id < ${where.param(idFloorAt(resolveInstant(input.before, now), "run"))}::text`);
}

/**
 * run_list: the runs of the owners the caller acts for (or one of them), newest first,
 * each with its state and totals as stored on the row — one statement per page, no query
 * per row. Run ids are time-ordered, so the page walks an owner-led index by id and the
 * cursor is the last id. `q` matches a name by substring or a trace id exactly (what a
 * person pastes from their tracing tool).
 */
export async function listRuns(ctx: ServiceContext, input: Input): Promise<z.output<typeof RunList>> {
  const owners = input.owner !== undefined ? [resolveOwner(ctx.principal, input.owner, "list runs")] : visibleOwners(ctx.principal);
  const limit = input.limit ?? LIMITS.pageDefault;
  const where = new Conditions();
  // `= any(array)`, not a join over a JSON list: the planner then sees the owners as an
  // index condition and can pick an owner-led partial index (error, open, conversation).
  where.add(owners.length === 1 ? `r.owner = ${where.param(owners[0])}::text` : `r.owner = any(${where.param(owners)}::text[])`);
  if (input.cursor) where.add(`r.id < ${where.param(decodeCursor(input.cursor, "run"))}::text`);
  addRunFilters(where, input, ctx.now());
  const rows = await ctx.store.query<ListRow>(
    `select ${LIST_COLUMNS}
       from runs r
      where ${where.sql}
      order by r.id desc limit ${where.param(limit + 1)}`,
    where.params,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(toSummary), next_cursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}

export const toSummary = (r: ListRow): RunSummary => ({
  id: r.id,
  name: r.name,
  owner: r.owner,
  trace_id: r.trace_id,
  created_at: iso(r.created_at),
  closed_at: r.closed_at === null ? null : iso(r.closed_at),
  ...totalsOf(r),
});
