import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { clearAssignmentsOfLeaver } from "../artifact/assign.js";
import { CairnError, validationFailed } from "../errors.js";
import { disableSubscriptionsOfLeaver } from "../events/subscriptions.js";
import { findUserByName } from "../identity/users.js";
import { loadTeam, requireTeam } from "./internal.js";
import type { Team, TeamMemberInput } from "./schemas.js";

type MemberInput = z.output<typeof TeamMemberInput>;

const noUser = (name: string) => new CairnError("not_found", `No user named ${name}.`, { issues: [{ field: "user", reason: "names no user" }] });

/** Adds a member. Adding someone who is already a member changes nothing and is not an error. */
export async function addTeamMember(ctx: ServiceContext, input: MemberInput): Promise<Team> {
  return ctx.store.transaction(async (tx) => {
    const team = await requireTeam(tx, ctx.principal, input.name, true);
    const user = await findUserByName(tx, input.user);
    if (!user) throw noUser(input.user);
    await tx.query(
      `insert into team_members (team_id, user_id, added_at) values ($1, $2, $3)
       on conflict (team_id, user_id) do nothing`,
      [team.id, user.id, ctx.now().toISOString()],
    );
    return loadTeam(tx, team);
  });
}

/**
 * Removes a member (members may remove themselves); the team's subscriptions they created
 * stop and the team's artifacts assigned to them are assigned to nobody. The last member cannot leave: a team
 * with no members would own artifacts and runs nobody could read. The team row is locked
 * so two concurrent removals cannot both pass that check.
 */
export async function removeTeamMember(ctx: ServiceContext, input: MemberInput): Promise<Team> {
  return ctx.store.transaction(async (tx) => {
    const team = await requireTeam(tx, ctx.principal, input.name, true);
    const members = await tx.query<{ user_id: string; name: string }>(
      "select m.user_id, u.name from team_members m join users u on u.id = m.user_id where m.team_id = $1",
      [team.id],
    );
    const leaving = members.find((m) => m.name === input.user);
    if (!leaving) {
      throw new CairnError("not_found", `${input.user} is not a member of team:${team.name}.`, {
        issues: [{ field: "user", reason: "is not a member of this team" }],
      });
    }
    if (members.length === 1) {
      throw validationFailed([{ field: "user", reason: "is the last member; a team keeps at least one member", limit: 1 }]);
    }
    await tx.query("delete from team_members where team_id = $1 and user_id = $2", [team.id, leaving.user_id]);
    await disableSubscriptionsOfLeaver(tx, `team:${team.name}`, leaving.name, ctx.now());
    await clearAssignmentsOfLeaver(ctx, tx, `team:${team.name}`, leaving.name);
    return loadTeam(tx, team);
  });
}
