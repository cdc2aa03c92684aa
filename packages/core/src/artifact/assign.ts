import { z } from "zod";
import type { CairnConfig, Principal, ServiceContext } from "../context.js";
import { type Issue, notFound, validationFailed } from "../errors.js";
import { eventArgument, eventPayload, recordEvent } from "../events/outbox.js";
import type { EventData } from "../events/schemas.js";
import { actsFor } from "../identity/authorize.js";
import { AssigneeName, parseOwner } from "../identity/names.js";
import { newId } from "../ids.js";
import type { Sql } from "../store/port.js";
import { ARTIFACT_COLUMNS, type ArtifactRow, findArtifact, isExpired, shareUrl, toArtifact } from "./internal.js";
import { gone } from "./read.js";
import { type Artifact, ArtifactReadInput } from "./schemas.js";

export const ArtifactAssignInput = z.strictObject({
  id: ArtifactReadInput.shape.id,
  assignee: AssigneeName.nullable().describe(
    "Who must act on it now: a bare user name such as `sam` who may read it (the owner user or a member of the owner team), or null for nobody.",
  ),
});

/**
 * Why `name` cannot be the assignee of an artifact owned by `owner`, or null when it can:
 * the user must exist and be able to read it — the owner user, or a member of the owner
 * team (SPEC §20). One query. Called in the transaction that assigns: the membership is
 * held (`for share`), so a removal waits for that commit and then clears the assignment
 * (clearAssignmentsOfLeaver).
 */
export async function assigneeIssue(sql: Sql, owner: string, name: string): Promise<Issue | null> {
  const { kind, name: ownerName } = parseOwner(owner);
  const rows =
    kind === "user"
      ? name === ownerName
        ? await sql.query("select 1 from users where name = $1", [name])
        : []
      : await sql.query(
          `select 1 from team_members m join teams t on t.id = m.team_id join users u on u.id = m.user_id
            where t.name = $1 and u.name = $2 for share of m`,
          [ownerName, name],
        );
  return rows.length > 0 ? null : unassignableIssue(owner);
}

/**
 * The refusal of an assignee who may not read an artifact of `owner`. One answer for "no
 * such user" and "cannot read it": a token must not learn which user names exist.
 */
export function unassignableIssue(owner: string): Issue {
  const { kind, name } = parseOwner(owner);
  const who = kind === "user" ? `only ${name} (the owner)` : `only members of ${owner}`;
  return { field: "assignee", reason: `names no user who may read it: ${who} may be assigned` };
}

/**
 * What to do when the assignee may not read it (SPEC §34): for a personal artifact, move it
 * to a team first, naming a team the caller shares with that user when there is one (the
 * caller can read that team's members anyway, so this tells them nothing new); for a
 * team's, invite them. The same words whether or not the name is a user.
 */
async function howToAssign(sql: Sql, principal: Principal, row: Pick<ArtifactRow, "id" | "owner">, name: string): Promise<string> {
  const { kind, name: ownerName } = parseOwner(row.owner);
  if (kind === "team") return `invite them to ${row.owner} first (cairn team add ${ownerName} NAME)`;
  const [shared] = await sql.query<{ name: string }>(
    `select t.name from teams t join team_members mine on mine.team_id = t.id join team_members theirs on theirs.team_id = t.id
       join users u on u.id = theirs.user_id where mine.user_id = $1 and u.name = $2 order by t.name limit 1`,
    [principal.user.id, name],
  );
  const team = shared ? `team:${shared.name}` : "team:NAME";
  return `move it to ${team} first (cairn transfer ${row.id} ${team}), then assign it`;
}

/** §20's `data` of artifact.assigned. */
export function assignedData(
  config: CairnConfig,
  row: Pick<ArtifactRow, "id" | "title" | "owner" | "share_token">,
  assignee: string | null,
  previous: string | null,
  principal: Principal,
): EventData<"artifact.assigned"> {
  return {
    id: row.id,
    title: row.title,
    url: shareUrl(config, row.share_token),
    owner: row.owner,
    assignee,
    previous_assignee: previous,
    by: { user: principal.user.name, token_name: principal.token.name },
  };
}

/**
 * For a create that names an assignee: the `artifact.assigned` event as the argument
 * `cairn_insert_artifact` records in the same statement as the artifact (migration 0014).
 */
export function assignedAtCreate(ctx: ServiceContext, now: Date): (row: ArtifactRow) => Record<string, string> {
  return (row) => {
    const id = newId("evt", now);
    const event = { type: "artifact.assigned" as const, owner: row.owner, data: assignedData(ctx.config, row, row.assignee, null, ctx.principal) };
    return eventArgument(event, id, eventPayload(event.type, id, now, event.data), now);
  };
}

/**
 * When a member leaves a team, nothing of the team stays assigned to them: they can no
 * longer read it (SPEC §20). Each cleared assignment is one `artifact.assigned` event (to
 * nobody, by the caller who removed them), written in the removal's transaction. The
 * removal's delete of the membership waits for a receipt write that holds it (`for
 * share`, cairn_write_receipt), so an assignment that write made is cleared here too.
 */
export async function clearAssignmentsOfLeaver(ctx: ServiceContext, tx: Sql, teamOwner: string, userName: string): Promise<void> {
  const cleared = await tx.query<ArtifactRow>(`update artifacts set assignee = null where owner = $1 and assignee = $2 returning ${ARTIFACT_COLUMNS}`, [
    teamOwner,
    userName,
  ]);
  const now = ctx.now();
  for (const row of cleared) {
    await recordEvent(tx, { type: "artifact.assigned", owner: row.owner, data: assignedData(ctx.config, row, null, userName, ctx.principal) }, now);
  }
}

/**
 * artifact_assign: names the one user who must act, or nobody. Human tokens only (the
 * operation needs `artifacts:assign`; agent tokens may name an assignee only when they
 * create): reassigning is a person's decision. The caller must act for the owner (else the
 * 404 of a missing id, like retain); the assignee must be able to read it (else 422
 * naming `assignee`). Every change is one `artifact.assigned` event, written in the
 * transaction that changes it; assigning the same user again changes nothing and
 * announces nothing.
 */
export async function assignArtifact(ctx: ServiceContext, input: z.output<typeof ArtifactAssignInput>): Promise<Artifact> {
  const row = await findArtifact(ctx.store, input.id);
  if (!row || !actsFor(ctx.principal, row.owner)) throw notFound();
  const now = ctx.now();
  if (isExpired(row, now)) throw gone();
  const updated = await ctx.store.transaction(async (tx) => {
    const [locked] = await tx.query<{ assignee: string | null }>("select assignee from artifacts where id = $1 for update", [row.id]);
    if (!locked) throw gone();
    if (input.assignee !== null) {
      const issue = await assigneeIssue(tx, row.owner, input.assignee);
      if (issue) throw validationFailed([{ ...issue, reason: `${issue.reason}; ${await howToAssign(tx, ctx.principal, row, input.assignee)}` }]);
    }
    const previous = locked.assignee ?? null;
    if (previous === input.assignee) return null;
    const [changed] = await tx.query<ArtifactRow>(`update artifacts set assignee = $2 where id = $1 returning ${ARTIFACT_COLUMNS}`, [row.id, input.assignee]);
    await recordEvent(tx, { type: "artifact.assigned", owner: row.owner, data: assignedData(ctx.config, row, input.assignee, previous, ctx.principal) }, now);
    return changed ?? null;
  });
  return toArtifact(ctx.store, ctx.config, { kind: "principal", principal: ctx.principal }, updated ?? row);
}
