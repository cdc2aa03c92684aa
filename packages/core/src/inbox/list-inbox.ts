import type { z } from "zod";
import { ARTIFACT_COLUMNS, type ArtifactRow, toArtifacts } from "../artifact/internal.js";
import type { Artifact } from "../artifact/schemas.js";
import type { Principal, ServiceContext } from "../context.js";
import { LIMITS } from "../limits.js";
import { askMarkOf, decisionStateOf } from "../view/decision.js";
import { humanActionText } from "./format.js";
import { ARTIFACT_ID, ageOf, decodeCursor, encodeCursor, ownersOf } from "./internal.js";
import { ACTION_STATES, type ActionState, actionStateSql, needsActionSql, openAskSql, unexpiredSql } from "./rules.js";
import type { InboxAsk, InboxList, InboxListInput } from "./schemas.js";

/** `assignee=me|none|NAME` as one SQL parameter: the user name, '' for nobody, null for no filter. */
function assigneeFilter(principal: Principal, assignee: string | undefined): string | null {
  if (assignee === undefined) return null;
  if (assignee === "me") return principal.user.name;
  return assignee === "none" ? "" : assignee;
}

/** The inbox's two groups, in order: open asks (SPEC §32), then everything else. */
type Group = "ask" | "rest";
const GROUP = /^(ask|rest)$/;

/** A cursor names the group and the id of the last row; a bare id (issued before the groups) continues the rest. */
function decodeInboxCursor(cursor: string | undefined): { group: Group; after: string | null } {
  if (cursor === undefined) return { group: "ask", after: null };
  try {
    const [after] = decodeCursor(cursor, [ARTIFACT_ID]);
    return { group: "rest", after: after ?? null };
  } catch {
    const [group, after] = decodeCursor(cursor, [GROUP, ARTIFACT_ID]);
    return { group: group as Group, after: after ?? null };
  }
}

function askOf(receipt: Artifact, now: Date): z.output<typeof InboxAsk> | null {
  if (!receipt.ask) return null;
  const { state, decision } = decisionStateOf(receipt, now);
  return { state, options: receipt.ask.options, answer_by: receipt.ask.answer_by, decision, text: askMarkOf(receipt, now) ?? "" };
}

/**
 * inbox_list: receipts that ask a person for something, of the owners the caller acts
 * for: open asks first, then the rest, each group newest first (keyset on the group and
 * the time-ordered id). The state comes from the one rule in rules.ts; expired receipts
 * are left out.
 */
export async function listInbox(ctx: ServiceContext, input: z.output<typeof InboxListInput>): Promise<z.output<typeof InboxList>> {
  const owners = ownersOf(ctx.principal, input.owner, "read the inbox");
  const states: readonly ActionState[] = input.state === "all" ? ACTION_STATES : [input.state];
  const limit = input.limit ?? LIMITS.pageDefault;
  const start = decodeInboxCursor(input.cursor);
  const now = ctx.now();
  // Each group is its own keyset query with the state filter beside the keyset condition
  // (no subquery), so the scan down the owner's id index stops after one page.
  const groupPage = async (group: Group, after: string | null, take: number) =>
    (
      await ctx.store.query<ArtifactRow & { action_state: ActionState }>(
        `select ${ARTIFACT_COLUMNS}, ${actionStateSql("a")} as action_state from artifacts a
          where a.owner in (select jsonb_array_elements_text($1::jsonb)) and ${needsActionSql("a")}
            and ${unexpiredSql("a", "$2")} and ($3::text is null or a.id < $3::text)
            and ${actionStateSql("a")} = any(string_to_array($4::text, ','))
            and ($6::text is null or ($6 = '' and a.assignee is null) or a.assignee = $6)
            and ${group === "ask" ? "" : "not "}${openAskSql("a", "$2")}
          order by a.id desc limit $5`,
        [JSON.stringify(owners), now.toISOString(), after, states.join(","), take, assigneeFilter(ctx.principal, input.assignee)],
      )
    ).map((row) => ({ row, group }));
  let rows = start.group === "ask" ? await groupPage("ask", start.after, limit + 1) : [];
  if (rows.length <= limit) rows = rows.concat(await groupPage("rest", start.group === "rest" ? start.after : null, limit + 1 - rows.length));
  const page = rows.slice(0, limit);
  const receipts = await toArtifacts(
    ctx.store,
    ctx.config,
    { kind: "principal", principal: ctx.principal },
    page.map((p) => p.row),
  );
  const items = page.map(({ row }, i) => {
    const receipt = receipts[i] as (typeof receipts)[number];
    return {
      id: row.id,
      state: row.action_state,
      human_action: humanActionText(row.metadata).action,
      assignee: row.assignee ?? null,
      age: ageOf(row.created_at, now),
      acknowledgements: receipt.acknowledgements,
      ask: askOf(receipt, now),
      receipt,
    };
  });
  const last = page.at(-1);
  return { items, next_cursor: rows.length > limit && last ? encodeCursor([last.group, last.row.id]) : null };
}
