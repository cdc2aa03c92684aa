import type { Principal } from "../context.js";
import { notFound } from "../errors.js";
import { actsFor } from "../identity/authorize.js";
import type { Sql } from "../store/port.js";
import type { Team } from "./schemas.js";

export interface TeamRow {
  id: string;
  name: string;
  created_at: Date | string;
}

export const teamOwner = (name: string) => `team:${name}`;

/**
 * How long an invitation waits for its answer. Past it the invitation is gone, as if
 * withdrawn: a name nobody answers for does not hold a place in the team's list forever.
 */
export const INVITATION_DAYS = 14;

/** SQL: the invitation row `alias` still waits for an answer at `$now` (a timestamptz parameter). */
export const invitationIsOpen = (alias: string, now: string) => `${alias}.created_at > ${now}::timestamptz - interval '${INVITATION_DAYS} days'`;

export async function findTeam(sql: Sql, name: string, lock = false): Promise<TeamRow | undefined> {
  const [row] = await sql.query<TeamRow>(`select id, name, created_at from teams where name = $1${lock ? " for update" : ""}`, [name]);
  return row;
}

/**
 * Members act for their team (the same `actsFor` rule as owners everywhere); an
 * administrator may also manage a team, so a team whose members all left can be
 * recovered. Anyone else gets the same 404 whether or not the team exists.
 */
function mayManageTeam(principal: Principal, name: string): boolean {
  return actsFor(principal, teamOwner(name)) || principal.user.is_admin;
}

export async function requireTeam(sql: Sql, principal: Principal, name: string, lock = false): Promise<TeamRow> {
  if (!mayManageTeam(principal, name)) throw notFound("team", "name");
  const row = await findTeam(sql, name, lock);
  if (!row) throw notFound("team", "name");
  return row;
}

export async function loadTeam(sql: Sql, row: TeamRow, now: Date): Promise<Team> {
  const members = await sql.query<{ name: string }>(`select u.name from team_members m join users u on u.id = m.user_id where m.team_id = $1 order by u.name`, [
    row.id,
  ]);
  const invited = await sql.query<{ invited_name: string }>(
    `select i.invited_name from team_invitations i where i.team_id = $1 and ${invitationIsOpen("i", "$2")} order by i.invited_name`,
    [row.id, now.toISOString()],
  );
  return {
    id: row.id,
    name: row.name,
    owner: teamOwner(row.name),
    members: members.map((m) => m.name),
    invited: invited.map((i) => i.invited_name),
    created_at: new Date(row.created_at).toISOString(),
  };
}
