import { z } from "zod";
import type { ServiceContext } from "../context.js";
import { CairnError, notFound, validationFailed } from "../errors.js";
import { recordEvent } from "../events/outbox.js";
import { actsFor } from "../identity/authorize.js";
import { parseOwner } from "../identity/names.js";
import type { Sql } from "../store/port.js";
import { storableString } from "../text.js";
import { assignedData } from "./assign.js";
import { ARTIFACT_COLUMNS, type ArtifactRow, findArtifact, isExpired, shareUrl, toArtifact } from "./internal.js";
import { gone } from "./read.js";
import { type Artifact, ArtifactReadInput } from "./schemas.js";

export const ArtifactTransferInput = z.strictObject({
  id: ArtifactReadInput.shape.id,
  owner: storableString()
    .regex(/^team:[a-z0-9][a-z0-9._-]{0,63}$/, "must be team:NAME")
    .describe("The team that owns it from now on, `team:NAME`: one you belong to (an administrator may name any team)."),
});

/**
 * Tables that keep a copy of an artifact's owner beside its id, so reads by owner stay one
 * index lookup. Each moves with the artifact; everything else attached to it
 * (acknowledgements, links, notifications, comments) is keyed by the artifact id alone.
 */
const OWNER_COPIES = ["measure_due_notices", "trace_links"] as const;

/**
 * The target team must exist (administrators) or hold the caller as a member, the
 * membership held `for share` so a removal waits for this commit. A team the caller is
 * not in is the 403 on `owner` that creating for it answers.
 */
async function targetTeam(tx: Sql, ctx: ServiceContext, team: string): Promise<void> {
  const held = ctx.principal.user.is_admin
    ? await tx.query("select 1 from teams where name = $1", [team])
    : await tx.query("select 1 from team_members m join teams t on t.id = m.team_id where t.name = $1 and m.user_id = $2 for share of m", [
        team,
        ctx.principal.user.id,
      ]);
  if (held.length === 0) {
    if (ctx.principal.user.is_admin) throw notFound("team", "name");
    const issue = { field: "owner", reason: `you are not a member of team:${team}` };
    throw new CairnError("forbidden", `owner: ${issue.reason}.`, { issues: [issue] });
  }
}

/** Receipts of one thread moved at most in one call: the move is one transaction. */
export const THREAD_LIMIT = 500;

/**
 * The artifact and every artifact of the same owner joined to it by `follows`, either way,
 * locked. They move together: §9 shows a link only between artifacts of one owner, so
 * moving a receipt without its follow-ups would make its measured outcome read as pending
 * for both owners (ADR 0078).
 */
async function lockThread(tx: Sql, id: string, owner: string): Promise<ArtifactRow[]> {
  const ids = await tx.query<{ id: string }>(
    `with recursive thread(id) as (
       select $1::text
       union
       select a.id from thread t join artifacts x on x.id = t.id join artifacts a on (a.follows = x.id or a.id = x.follows) where a.owner = $2
     ) select id from thread limit $3`,
    [id, owner, THREAD_LIMIT + 1],
  );
  if (ids.length > THREAD_LIMIT) {
    throw validationFailed([
      { field: "id", reason: `is one of more than ${THREAD_LIMIT} receipts that follow each other; they move together`, limit: THREAD_LIMIT },
    ]);
  }
  return tx.query<ArtifactRow>(`select ${ARTIFACT_COLUMNS} from artifacts where id = any($1::text[]) and owner = $2 order by id for update`, [
    ids.map((r) => r.id),
    owner,
  ]);
}

/**
 * artifact_transfer (SPEC §34): moves an artifact to a team. The owner user (or a member of
 * the owner team) moves it to a team they belong to; an administrator moves any artifact
 * to any team. Anyone else gets the 404 of a missing id. Everything attached follows:
 * acknowledgements, comments and notifications are keyed by the artifact; the receipts it
 * follows or that follow it move with it, so its links and its outcome read the same; an
 * assignee stays when they may read it under the new owner (else the assignment is cleared
 * and announced); visibility is the new owner's from the next read. Each moved artifact is
 * one `artifact.transferred` event naming both owners, sent to each owner's subscriptions.
 */
export async function transferArtifact(ctx: ServiceContext, input: z.output<typeof ArtifactTransferInput>): Promise<Artifact> {
  const row = await findArtifact(ctx.store, input.id);
  const admin = ctx.principal.user.is_admin;
  if (!row || !(admin || actsFor(ctx.principal, row.owner))) throw notFound();
  const now = ctx.now();
  if (isExpired(row, now)) throw gone();
  const sameOwner = () => validationFailed([{ field: "owner", reason: `is already the owner of ${row.id}` }]);
  if (row.owner === input.owner) throw sameOwner();
  const team = parseOwner(input.owner).name;
  const moved = await ctx.store.transaction(async (tx) => {
    const [locked] = await tx.query<ArtifactRow>(`select ${ARTIFACT_COLUMNS} from artifacts where id = $1 for update`, [row.id]);
    if (!locked || isExpired(locked, now)) throw gone();
    if (locked.owner === input.owner) throw sameOwner();
    await targetTeam(tx, ctx, team);
    const thread = await lockThread(tx, row.id, locked.owner);
    const members = new Set(
      (
        await tx.query<{ name: string }>(
          "select u.name from team_members m join teams t on t.id = m.team_id join users u on u.id = m.user_id where t.name = $1",
          [team],
        )
      ).map((m) => m.name),
    );
    const ids = thread.map((a) => a.id);
    const keep = thread.filter((a) => a.assignee === null || members.has(a.assignee)).map((a) => a.id);
    const after = await tx.query<ArtifactRow>(
      `update artifacts set owner = $2, assignee = case when id = any($3::text[]) then assignee else null end
        where id = any($1::text[]) returning ${ARTIFACT_COLUMNS}`,
      [ids, input.owner, keep],
    );
    for (const table of OWNER_COPIES) await tx.query(`update ${table} set owner = $2 where artifact_id = any($1::text[])`, [ids, input.owner]);
    const by = { user: ctx.principal.user.name, token_name: ctx.principal.token.name };
    for (const a of after) {
      const data = { id: a.id, title: a.title, url: shareUrl(ctx.config, a.share_token), owner: input.owner, previous_owner: locked.owner, by };
      for (const owner of [input.owner, locked.owner]) await recordEvent(tx, { type: "artifact.transferred", owner, data }, now);
      const before = thread.find((t) => t.id === a.id);
      if (before?.assignee && a.assignee === null) {
        await recordEvent(tx, { type: "artifact.assigned", owner: input.owner, data: assignedData(ctx.config, a, null, before.assignee, ctx.principal) }, now);
      }
    }
    const named = after.find((a) => a.id === row.id);
    if (!named) throw new CairnError("internal", "The artifact row vanished under its lock.");
    return named;
  });
  return toArtifact(ctx.store, ctx.config, { kind: "principal", principal: ctx.principal }, moved);
}
