import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { visibleOwners } from "../identity/authorize.js";
import { resolveOwner } from "../identity/owner.js";
import { LIMITS } from "../limits.js";
import type { Sql } from "../store/port.js";
import type { Surface } from "../surfaces.js";
import { classifyDrop, type DropCategory, type FieldFault } from "./classification.js";
import {
  DROP_WINDOW_DAYS,
  type DropList,
  type DropReceipt,
  type DropState,
  type DropsDismissed,
  type DropsDismissInput,
  type DropsListInput,
} from "./schemas.js";

interface DropRow {
  id: string;
  owner: string;
  category: DropCategory;
  fields: string[];
  title: string | null;
  title_withheld: boolean;
  surface: DropReceipt["surface"];
  actor: DropReceipt["actor"];
  model: string | null;
  created_at: Date | string;
  fault: FieldFault | null;
  state: DropState;
}

/**
 * Where a drop stands (SPEC §24), by one expression over the row `d`: dismissed by a person;
 * resolved once the same token stored an accepted receipt for the same owner after it; else open.
 */
export const dropStateSql = (d: string) => `(case when ${d}.dismissed_at is not null then 'dismissed'
    when exists (select 1 from artifacts a
                  where a.owner = ${d}.owner and a.metadata is not null
                    and (a.provenance->'actor'->>'id') = (${d}.actor->>'id') and a.created_at > ${d}.created_at) then 'resolved'
    else 'open' end)`;

/** Classification is read from the table at read time: one source for cause and next action. */
const toDrop = (r: DropRow, surface: Surface, serverUrl: string): DropReceipt => ({
  id: r.id,
  owner: r.owner,
  // Phrased for the reader's surface, which need not be the one the submission came through.
  ...classifyDrop(r.category, surface, r.fault, serverUrl),
  fields: r.fields,
  title: r.title,
  title_withheld: r.title_withheld,
  surface: r.surface,
  actor: r.actor,
  model: r.model,
  created_at: new Date(r.created_at).toISOString(),
  state: r.state,
});

export const windowStart = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000);

/** drops_list: drop receipts of the owners the caller acts for, newest first, in a trailing window. */
export async function listDrops(ctx: ServiceContext, input: z.output<typeof DropsListInput>): Promise<z.output<typeof DropList>> {
  const owners = input.owner !== undefined ? [resolveOwner(ctx.principal, input.owner, "list drops")] : visibleOwners(ctx.principal);
  const limit = input.limit ?? LIMITS.pageDefault;
  const since = windowStart(ctx.now(), input.days ?? DROP_WINDOW_DAYS);
  const rows = await ctx.store.query<DropRow>(
    `select id, owner, category, fields, title, title_withheld, surface, actor, model, created_at, fault, ${dropStateSql("drops")} as state from drops
      where owner in (select jsonb_array_elements_text($1::jsonb)) and created_at > $2
        and ($3::text is null or id < $3::text)
      order by id desc limit $4`,
    [JSON.stringify(owners), since.toISOString(), input.cursor ? decodeCursor(input.cursor, "drp") : null, limit + 1],
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map((r) => toDrop(r, ctx.surface, ctx.config.publicUrl)), next_cursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}

export interface DropCount {
  owner: string;
  category: DropCategory;
  rule: string | null;
  n: number;
  /** Of those, the ones still `open`: neither resolved nor dismissed. Only these warn. */
  open: number;
}

/** Counts per owner, category and refusing rule in the window: what doctor and status aggregate. */
export async function countDrops(sql: Sql, owners: readonly string[], since: Date): Promise<DropCount[]> {
  return sql.query<DropCount>(
    `select owner, category, rule, count(*)::int as n, count(*) filter (where ${dropStateSql("drops")} = 'open')::int as open from drops
      where owner in (select jsonb_array_elements_text($1::jsonb)) and created_at > $2
      group by owner, category, rule`,
    [JSON.stringify(owners), since.toISOString()],
  );
}

/**
 * drops_dismiss: a person clears the drops they looked at from doctor's warning (SPEC §24).
 * One statement; drops already dismissed keep who dismissed them first. The drops stay listed.
 */
export async function dismissDrops(ctx: ServiceContext, input: z.output<typeof DropsDismissInput>): Promise<z.output<typeof DropsDismissed>> {
  const owners = input.owner !== undefined ? [resolveOwner(ctx.principal, input.owner, "dismiss drops")] : visibleOwners(ctx.principal);
  const before = input.before === undefined ? ctx.now() : new Date(/^\d{4}-\d{2}-\d{2}$/.test(input.before) ? `${input.before}T00:00:00Z` : input.before);
  const rows = await ctx.store.query<{ n: number }>(
    `with dismissed as (
       update drops set dismissed_at = $3, dismissed_by = $4
        where owner in (select jsonb_array_elements_text($1::jsonb)) and created_at <= $2 and dismissed_at is null
       returning 1)
     select count(*)::int as n from dismissed`,
    [JSON.stringify(owners), before.toISOString(), ctx.now().toISOString(), ctx.principal.user.name],
  );
  return { dismissed: rows[0]?.n ?? 0, before: before.toISOString() };
}
