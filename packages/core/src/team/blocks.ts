import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { validationFailed } from "../errors.js";
import { LIMITS } from "../limits.js";
import type { Sql } from "../store/port.js";
import { invitationIsOpen, teamOwner } from "./internal.js";
import type { TeamAnswer, TeamAnswerInput, TeamInvitation, TeamInvitationList, TeamInvitationListInput } from "./schemas.js";

const encodeCursor = (team: string) => Buffer.from(team, "utf8").toString("base64url");
function decodeCursor(cursor: string): string {
  const team = Buffer.from(cursor, "base64url").toString("utf8");
  if (!/^[a-z0-9][a-z0-9._-]{0,63}$/.test(team)) throw validationFailed([{ field: "cursor", reason: "is not a cursor this server issued" }]);
  return team;
}

/** team_invitation_list: invitations waiting for the caller and the teams they blocked, by team name. */
export async function listInvitations(ctx: ServiceContext, input: z.output<typeof TeamInvitationListInput>): Promise<z.output<typeof TeamInvitationList>> {
  const limit = input.limit ?? LIMITS.pageDefault;
  const rows = await ctx.store.query<{ team: string; state: "invited" | "blocked"; invited_by: string | null; at: Date | string }>(
    `select * from (
       select t.name as team, 'invited' as state, u.name as invited_by, i.created_at as at
         from team_invitations i join teams t on t.id = i.team_id join users u on u.id = i.invited_by
        where i.user_id = $1 and ${invitationIsOpen("i", "$2")}
       union all
       select b.team_name, 'blocked', null, b.created_at from team_blocks b where b.user_id = $1
     ) x where $3::text is null or x.team > $3 order by x.team limit $4`,
    [ctx.principal.user.id, ctx.now().toISOString(), input.cursor ? decodeCursor(input.cursor) : null, limit + 1],
  );
  const page = rows.slice(0, limit);
  return {
    items: page.map((r): TeamInvitation => ({ team: teamOwner(r.team), state: r.state, invited_by: r.invited_by, at: new Date(r.at).toISOString() })),
    next_cursor: rows.length > limit && page.length > 0 ? encodeCursor(page[page.length - 1]?.team ?? "") : null,
  };
}

/**
 * Blocks a team by name, whether or not it exists (the answer tells nothing). An open
 * invitation from it stops naming the caller, so to the team it looks like any name that
 * never answers; it is not deleted, which would tell the team who blocked it.
 */
export async function recordBlock(tx: Sql, userId: string, teamName: string, now: Date): Promise<void> {
  await tx.query("insert into team_blocks (user_id, team_name, created_at) values ($1, $2, $3) on conflict (user_id, team_name) do nothing", [
    userId,
    teamName,
    now.toISOString(),
  ]);
  await tx.query("update team_invitations i set user_id = null from teams t where t.id = i.team_id and t.name = $2 and i.user_id = $1", [userId, teamName]);
}

/** team_block: the team can no longer invite the caller (SPEC §37). Membership is unchanged: leave with team_leave. */
export async function blockTeam(ctx: ServiceContext, input: z.output<typeof TeamAnswerInput>): Promise<TeamAnswer> {
  await ctx.store.transaction((tx) => recordBlock(tx, ctx.principal.user.id, input.name, ctx.now()));
  return { team: teamOwner(input.name), state: "blocked", blocked: true };
}

/** team_unblock: the team may invite the caller again; invitations sent while blocked stay unseen. */
export async function unblockTeam(ctx: ServiceContext, input: z.output<typeof TeamAnswerInput>): Promise<TeamAnswer> {
  await ctx.store.query("delete from team_blocks where user_id = $1 and team_name = $2", [ctx.principal.user.id, input.name]);
  return { team: teamOwner(input.name), state: "unblocked", blocked: false };
}
