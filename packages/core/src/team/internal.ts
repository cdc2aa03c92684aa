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

async function findTeam(sql: Sql, name: string, lock = false): Promise<TeamRow | undefined> {
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

export async function loadTeam(sql: Sql, row: TeamRow): Promise<Team> {
  const members = await sql.query<{ name: string }>(`select u.name from team_members m join users u on u.id = m.user_id where m.team_id = $1 order by u.name`, [
    row.id,
  ]);
  return {
    id: row.id,
    name: row.name,
    owner: teamOwner(row.name),
    members: members.map((m) => m.name),
    created_at: new Date(row.created_at).toISOString(),
  };
}
