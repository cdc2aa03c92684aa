import type { z } from "zod";
import type { Principal, ServiceContext } from "../context.js";
import { CairnError, validationFailed } from "../errors.js";
import { recordEvent } from "../events/outbox.js";
import { findUserByName } from "../identity/users.js";
import type { Sql } from "../store/port.js";
import { findTeam, INVITATION_DAYS, invitationIsOpen, loadTeam, requireTeam, type TeamRow, teamOwner } from "./internal.js";
import type { Team, TeamAnswerInput, TeamMemberInput } from "./schemas.js";

/**
 * Open invitations one team may hold at once. Every name typed is kept (ADR 0078), so
 * without a bound one member could fill the table with names nobody answers.
 */
export const OPEN_INVITATIONS_PER_TEAM = 100;

export const byOf = (principal: Principal) => ({ user: principal.user.name, token_name: principal.token.name });

const noInvitation = (team: string) =>
  new CairnError("not_found", `No invitation from team:${team} is waiting for you.`, { issues: [{ field: "name", reason: "names no team that invited you" }] });

/**
 * team_member_add. An administrator adds the user directly (404 for a name that is no
 * user: an administrator may list users anyway). A member's add is an invitation the
 * invitee must accept (SPEC §37): it is recorded under the name as typed and answered with
 * the team as it now stands, which looks the same whether the name is a user, is no user,
 * or is a user who blocked the team, so the answer tells nobody which names exist.
 */
export async function addTeamMember(ctx: ServiceContext, input: z.output<typeof TeamMemberInput>): Promise<Team> {
  return ctx.store.transaction(async (tx) => {
    const team = await requireTeam(tx, ctx.principal, input.name, true);
    const now = ctx.now();
    const user = await findUserByName(tx, input.user);
    if (ctx.principal.user.is_admin) {
      if (!user) throw new CairnError("not_found", `No user named ${input.user}.`, { issues: [{ field: "user", reason: "names no user" }] });
      await addDirectly(ctx, tx, team, user.id, input.user);
    } else {
      await invite(ctx, tx, team, input.user, user?.id ?? null);
    }
    return loadTeam(tx, team, now);
  });
}

async function isMember(tx: Sql, teamId: string, userId: string): Promise<boolean> {
  return (await tx.query("select 1 from team_members where team_id = $1 and user_id = $2", [teamId, userId])).length > 0;
}

async function addDirectly(ctx: ServiceContext, tx: Sql, team: TeamRow, userId: string, userName: string): Promise<void> {
  const added = await tx.query(
    `insert into team_members (team_id, user_id, added_at) values ($1, $2, $3)
     on conflict (team_id, user_id) do nothing returning user_id`,
    [team.id, userId, ctx.now().toISOString()],
  );
  await tx.query("delete from team_invitations where team_id = $1 and invited_name = $2", [team.id, userName]);
  if (added.length > 0) {
    await recordEvent(
      tx,
      { type: "team.joined", owner: teamOwner(team.name), data: { team: teamOwner(team.name), user: userName, via: "administrator", by: byOf(ctx.principal) } },
      ctx.now(),
    );
  }
}

/**
 * Records (or renews) an invitation. `user_id` is kept only for a user who has not blocked
 * the team; otherwise the row is the same as for a name that is no user, so only a real,
 * willing invitee ever sees it. A member already in the team is left as is.
 */
async function invite(ctx: ServiceContext, tx: Sql, team: TeamRow, name: string, userId: string | null): Promise<void> {
  if (userId !== null && (await isMember(tx, team.id, userId))) return;
  const now = ctx.now().toISOString();
  await tx.query(`delete from team_invitations i where i.team_id = $1 and not (${invitationIsOpen("i", "$2")})`, [team.id, now]);
  const [open] = await tx.query<{ n: number | string; mine: number | string }>(
    "select count(*) as n, count(*) filter (where invited_name = $2) as mine from team_invitations where team_id = $1",
    [team.id, name],
  );
  if (Number(open?.mine ?? 0) === 0 && Number(open?.n ?? 0) >= OPEN_INVITATIONS_PER_TEAM) {
    throw validationFailed(
      [
        {
          field: "user",
          reason: `team:${team.name} already has ${OPEN_INVITATIONS_PER_TEAM} open invitations; remove some or wait for answers`,
          limit: OPEN_INVITATIONS_PER_TEAM,
        },
      ],
      `A team holds at most ${OPEN_INVITATIONS_PER_TEAM} open invitations (each waits ${INVITATION_DAYS} days).`,
    );
  }
  const blocked = userId === null ? [] : await tx.query("select 1 from team_blocks where user_id = $1 and team_name = $2", [userId, team.name]);
  await tx.query(
    `insert into team_invitations (team_id, invited_name, user_id, invited_by, created_at) values ($1, $2, $3, $4, $5)
     on conflict (team_id, invited_name) do update set user_id = excluded.user_id, invited_by = excluded.invited_by, created_at = excluded.created_at`,
    [team.id, name, blocked.length > 0 ? null : userId, ctx.principal.user.id, now],
  );
  await recordEvent(
    tx,
    { type: "team.invited", owner: teamOwner(team.name), data: { team: teamOwner(team.name), user: name, by: byOf(ctx.principal) } },
    ctx.now(),
  );
}

/** The caller's open invitation from the team, locked, or a 404 that says none is waiting. */
async function myInvitation(ctx: ServiceContext, tx: Sql, name: string): Promise<TeamRow> {
  const team = await findTeam(tx, name, true);
  if (!team) throw noInvitation(name);
  const [row] = await tx.query(`select 1 from team_invitations i where i.team_id = $1 and i.user_id = $2 and ${invitationIsOpen("i", "$3")} for update`, [
    team.id,
    ctx.principal.user.id,
    ctx.now().toISOString(),
  ]);
  if (!row) throw noInvitation(name);
  return team;
}

/** team_invitation_accept: the invitee says yes and becomes a member (SPEC §37). */
export async function acceptInvitation(ctx: ServiceContext, input: z.output<typeof TeamAnswerInput>): Promise<Team> {
  return ctx.store.transaction(async (tx) => {
    const team = await myInvitation(ctx, tx, input.name);
    const me = ctx.principal.user;
    await tx.query("delete from team_invitations where team_id = $1 and user_id = $2", [team.id, me.id]);
    await tx.query(
      `insert into team_members (team_id, user_id, added_at) values ($1, $2, $3)
       on conflict (team_id, user_id) do nothing`,
      [team.id, me.id, ctx.now().toISOString()],
    );
    await recordEvent(
      tx,
      { type: "team.joined", owner: teamOwner(team.name), data: { team: teamOwner(team.name), user: me.name, via: "invitation", by: byOf(ctx.principal) } },
      ctx.now(),
    );
    return loadTeam(tx, team, ctx.now());
  });
}

/** team_invitation_decline: the invitee says no; the team may invite again later (block to stop that). */
export async function declineInvitation(ctx: ServiceContext, input: z.output<typeof TeamAnswerInput>) {
  return ctx.store.transaction(async (tx) => {
    const team = await myInvitation(ctx, tx, input.name);
    await tx.query("delete from team_invitations where team_id = $1 and user_id = $2", [team.id, ctx.principal.user.id]);
    return { team: teamOwner(team.name), state: "declined" as const, blocked: false };
  });
}
