import type { Migration } from "./types.js";

/**
 * SPEC §37: nobody joins a team without saying yes (ADR 0078). An invitation is kept by
 * the name the inviter typed; `user_id` is set only when that name is a user who has not
 * blocked the team, so the inviting team sees the same row whether or not the name exists
 * and only a real, willing invitee ever sees it. Blocks are kept by team name: a block
 * holds for a team created later under that name too, and blocking tells nobody whether
 * the team exists.
 */
export const teamInvitations: Migration = {
  version: "0032_team_invitations",
  sql: `
    create table team_invitations (
      team_id text not null references teams(id) on delete cascade,
      invited_name text not null,
      user_id text references users(id) on delete cascade,
      invited_by text not null references users(id) on delete cascade,
      created_at timestamptz not null,
      primary key (team_id, invited_name)
    );
    create index team_invitations_user_idx on team_invitations (user_id) where user_id is not null;

    create table team_blocks (
      user_id text not null references users(id) on delete cascade,
      team_name text not null,
      created_at timestamptz not null,
      primary key (user_id, team_name)
    );
  `,
};
