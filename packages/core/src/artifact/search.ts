import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { visibleOwners } from "../identity/authorize.js";
import { LIMITS } from "../limits.js";
import { ARTIFACT_COLUMNS, type ArtifactRow, toArtifacts } from "./internal.js";
import type { Artifact, ArtifactSearchInput, ArtifactSummary } from "./schemas.js";
import { addSearchFilters, Conditions } from "./search-filters.js";

/** Every column but the body, for `fields=summary`: the body can be large and is not read. */
const SUMMARY_COLUMNS = ARTIFACT_COLUMNS.split(", ")
  .map((c) => (c === "body" ? "'' as body" : c === "details" ? "null as details" : `a.${c}`))
  .join(", ");
const FULL_COLUMNS = ARTIFACT_COLUMNS.split(", ")
  .map((c) => `a.${c}`)
  .join(", ");

/**
 * One page of the rows a search lists, newest first, plus whether another page follows.
 *
 * authorizeRead for a list: only the owners this principal acts for, never a share link.
 * The query runs once per owner (a lateral join over the owner list) so each owner's part
 * is an ordered, limited scan of an owner-led index, and the pages are merged by id;
 * one `owner = any(...)` scan cannot use an index's order across several owners (ADR 0020).
 * A full-text query runs first instead, on its GIN index, as an array of ids: matches
 * are few, and testing `@@` row by row along another index is what costs (ADR 0020). The
 * other filters narrow the matches in the same pass, which visits each matching row
 * anyway (for its owner), so only the survivors, not every match, are fetched again by
 * primary key in id order for the page (ADR 0026).
 */
export async function searchRows(ctx: ServiceContext, input: ArtifactSearchInput): Promise<{ rows: ArtifactRow[]; next_cursor: string | null }> {
  const limit = input.limit ?? LIMITS.pageDefault;
  const now = ctx.now();
  const visible = visibleOwners(ctx.principal);
  const owners = input.owner === undefined ? visible : visible.filter((o) => o === input.owner);
  const after = input.cursor ? decodeCursor(input.cursor, "art") : null;
  if (owners.length === 0) return { rows: [], next_cursor: null };
  const q = input.q && input.q.length > 0 ? input.q : null;
  const where = new Conditions();
  const ownerList = where.param(owners);
  where.add(q === null ? "a.owner = v.owner" : `a.owner = any(${ownerList}::text[])`);
  where.add(`(a.retained or a.expires_at is null or a.expires_at > ${where.param(now.toISOString())}::timestamptz)`);
  addSearchFilters(where, input, now);
  if (after) where.add(`a.id < ${where.param(after)}`);
  const columns = input.fields === "summary" ? SUMMARY_COLUMNS : FULL_COLUMNS;
  const pageSize = where.param(limit + 1);
  const sql =
    q === null
      ? `select page.* from unnest(${ownerList}::text[]) as v(owner)
          cross join lateral (
            select ${columns} from artifacts a
             where ${where.sql}
             order by a.id desc
             limit ${pageSize}
          ) page
          order by page.id desc
          limit ${pageSize}`
      : `select ${columns} from artifacts a
          where a.id = any(array(
                  select a.id from artifacts a
                   where a.search @@ websearch_to_tsquery('english', ${where.param(q)}::text)
                     and ${where.sql}))
          order by a.id desc
          limit ${pageSize}`;
  const rows = await ctx.store.query<ArtifactRow>(sql, where.params);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, next_cursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}

/**
 * Lists artifacts the caller owns or shares through a team, newest first, narrowed by
 * every filter given (AND). Expired artifacts are left out. Keyset pagination on the
 * time-ordered id, so pages stay stable while new artifacts arrive.
 */
export async function searchArtifacts(
  ctx: ServiceContext,
  input: ArtifactSearchInput,
): Promise<{ items: z.output<typeof ArtifactSummary>[]; next_cursor: string | null }> {
  const { rows, next_cursor } = await searchRows(ctx, input);
  const viewer = { kind: "principal", principal: ctx.principal } as const;
  const items: Array<z.output<typeof ArtifactSummary>> = await toArtifacts(ctx.store, ctx.config, viewer, rows);
  if (input.fields === "summary") for (const item of items) delete item.body;
  return { items, next_cursor };
}

/** The full artifacts of one page (export): bodies always included. */
export async function searchFullArtifacts(ctx: ServiceContext, input: ArtifactSearchInput): Promise<{ items: Artifact[]; next_cursor: string | null }> {
  const { rows, next_cursor } = await searchRows(ctx, { ...input, fields: "full" });
  const viewer = { kind: "principal", principal: ctx.principal } as const;
  return { items: await toArtifacts(ctx.store, ctx.config, viewer, rows), next_cursor };
}
