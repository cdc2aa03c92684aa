import type { z } from "zod";
import { ARTIFACT_COLUMNS, type ArtifactRow, toArtifacts } from "../artifact/internal.js";
import type { Principal, ServiceContext } from "../context.js";
import { LIMITS } from "../limits.js";
import { humanActionText } from "./format.js";
import { ARTIFACT_ID, ageOf, decodeCursor, encodeCursor, ownersOf } from "./internal.js";
import { ACTION_STATES, type ActionState, actionStateSql, needsActionSql, unexpiredSql } from "./rules.js";
import type { InboxList, InboxListInput } from "./schemas.js";

/** `assignee=me|none|NAME` as one SQL parameter: the user name, '' for nobody, null for no filter. */
function assigneeFilter(principal: Principal, assignee: string | undefined): string | null {
  if (assignee === undefined) return null;
  if (assignee === "me") return principal.user.name;
  return assignee === "none" ? "" : assignee;
}

/**
 * inbox_list: receipts that ask a person for something, of the owners the caller acts
 * for, newest first (keyset on the time-ordered id). The state comes from the one rule in
 * rules.ts; expired receipts are left out.
 */
export async function listInbox(ctx: ServiceContext, input: z.output<typeof InboxListInput>): Promise<z.output<typeof InboxList>> {
  const owners = ownersOf(ctx.principal, input.owner, "read the inbox");
  const states: readonly ActionState[] = input.state === "all" ? ACTION_STATES : [input.state];
  const limit = input.limit ?? LIMITS.pageDefault;
  const [after] = input.cursor ? decodeCursor(input.cursor, [ARTIFACT_ID]) : [null];
  const now = ctx.now();
  // The state filter sits beside the keyset condition (no subquery), so the scan down the
  // owner's id index stops after one page.
  const rows = await ctx.store.query<ArtifactRow & { action_state: ActionState }>(
    `select ${ARTIFACT_COLUMNS}, ${actionStateSql("a")} as action_state from artifacts a
      where a.owner in (select jsonb_array_elements_text($1::jsonb)) and ${needsActionSql("a")}
        and ${unexpiredSql("a", "$2")} and ($3::text is null or a.id < $3::text)
        and ${actionStateSql("a")} = any(string_to_array($4::text, ','))
        and ($6::text is null or ($6 = '' and a.assignee is null) or a.assignee = $6)
      order by a.id desc limit $5`,
    [JSON.stringify(owners), now.toISOString(), after ?? null, states.join(","), limit + 1, assigneeFilter(ctx.principal, input.assignee)],
  );
  const page = rows.slice(0, limit);
  const receipts = await toArtifacts(ctx.store, ctx.config, { kind: "principal", principal: ctx.principal }, page);
  const items = page.map((row, i) => {
    const receipt = receipts[i] as (typeof receipts)[number];
    return {
      id: row.id,
      state: row.action_state,
      human_action: humanActionText(row.metadata).action,
      assignee: row.assignee ?? null,
      age: ageOf(row.created_at, now),
      acknowledgements: receipt.acknowledgements,
      receipt,
    };
  });
  const last = page.at(-1);
  return { items, next_cursor: rows.length > limit && last ? encodeCursor([last.id]) : null };
}
