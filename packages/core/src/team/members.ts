import type { z } from "zod";
import { clearAssignmentsOfLeaver } from "../artifact/assign.js";
import type { ServiceContext } from "../context.js";
import { CairnError, notFound, validationFailed } from "../errors.js";
import { disableSubscriptionsOfLeaver } from "../events/subscriptions.js";
import type { Sql } from "../store/port.js";
import { recordBlock } from "./blocks.js";
import { findTeam, loadTeam, requireTeam, type TeamRow } from "./internal.js";
import type { Team, TeamAnswer, TeamLeaveInput, TeamMemberInput } from "./schemas.js";

export { addTeamMember } from "./invitations.js";

/**
 * Takes `userName` out of the team: the team's subscriptions they created stop and the
 * team's artifacts assigned to them are assigned to nobody. The last member cannot leave:
 * a team with no members would own artifacts and runs nobody could read. The caller holds
 * the team row locked, so two concurrent removals cannot both pass that check. Returns
 * false when they are not a member.
 */
async function removeMember(ctx: ServiceContext, tx: Sql, team: TeamRow, userName: string): Promise<boolean> {
  const members = await tx.query<{ user_id: string; name: string }>(
    "select m.user_id, u.name from team_members m join users u on u.id = m.user_id where m.team_id = $1",
    [team.id],
  );
  const leaving = members.find((m) => m.name === userName);
  if (!leaving) return false;
  if (members.length === 1) {
    throw validationFailed([{ field: "user", reason: "is the last member; a team keeps at least one member", limit: 1 }]);
  }
  await tx.query("delete from team_members where team_id = $1 and user_id = $2", [team.id, leaving.user_id]);
  await disableSubscriptionsOfLeaver(tx, `team:${team.name}`, leaving.name, ctx.now());
  await clearAssignmentsOfLeaver(ctx, tx, `team:${team.name}`, leaving.name);
  return true;
}

/**
 * team_member_remove: removes a member (members may remove themselves), or withdraws an
 * invitation to that name.
 */
export async function removeTeamMember(ctx: ServiceContext, input: z.output<typeof TeamMemberInput>): Promise<Team> {
  return ctx.store.transaction(async (tx) => {
    const team = await requireTeam(tx, ctx.principal, input.name, true);
    const removed = await removeMember(ctx, tx, team, input.user);
    const withdrawn = removed ? [] : await tx.query("delete from team_invitations where team_id = $1 and invited_name = $2 returning 1", [team.id, input.user]);
    if (!removed && withdrawn.length === 0) {
      throw new CairnError("not_found", `${input.user} is not a member of team:${team.name}.`, {
        issues: [{ field: "user", reason: "is not a member of this team" }],
      });
    }
    return loadTeam(tx, team, ctx.now());
  });
}

/** team_leave: the caller leaves (SPEC §37), and with `block` the team cannot invite them again. */
export async function leaveTeam(ctx: ServiceContext, input: z.output<typeof TeamLeaveInput>): Promise<TeamAnswer> {
  return ctx.store.transaction(async (tx) => {
    const team = await findTeam(tx, input.name, true);
    if (!team || !(await removeMember(ctx, tx, team, ctx.principal.user.name))) throw notFound("team", "name");
    if (input.block) await recordBlock(tx, ctx.principal.user.id, team.name, ctx.now());
    return { team: `team:${team.name}`, state: "left" as const, blocked: input.block };
  });
}
