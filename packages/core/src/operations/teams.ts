import { createTeam } from "../team/create.js";
import { addTeamMember, removeTeamMember } from "../team/members.js";
import { readTeam } from "../team/read.js";
import { Team, TeamCreateInput, TeamMemberInput, TeamReadInput } from "../team/schemas.js";
import { defineOperation } from "./define.js";

/** Teams: any user creates one and becomes its first member; members (and administrators) manage membership. */
export const TEAM_OPERATIONS = {
  team_create: defineOperation({
    name: "team_create",
    description:
      "Create a team. You become its first member. Artifacts and runs created with owner `team:NAME` are readable by every member.",
    input: TeamCreateInput,
    output: Team,
    mutates: true,
    run: createTeam,
  }),
  team_read: defineOperation({
    name: "team_read",
    description: "Read a team and its members. Only members (and administrators) can see a team.",
    input: TeamReadInput,
    output: Team,
    mutates: false,
    run: readTeam,
  }),
  team_member_add: defineOperation({
    name: "team_member_add",
    description: "Add a user to a team you belong to. Adding an existing member changes nothing.",
    input: TeamMemberInput,
    output: Team,
    mutates: true,
    run: addTeamMember,
  }),
  team_member_remove: defineOperation({
    name: "team_member_remove",
    description: "Remove a user (or yourself) from a team you belong to. The last member cannot be removed.",
    input: TeamMemberInput,
    output: Team,
    mutates: true,
    run: removeTeamMember,
  }),
} as const;
