import { defineApiTag } from "../operations/api-tags.js";
import { defineOperation } from "../operations/define.js";
import { createTeam } from "./create.js";
import { addTeamMember, removeTeamMember } from "./members.js";
import { readTeam } from "./read.js";
import { Team, TeamCreateInput, TeamMemberInput, TeamReadInput } from "./schemas.js";

/** This area's group in the API documentation. */
export const TEAM_TAG = defineApiTag("Teams", "Teams own artifacts and runs together: create one, read it, and manage its members.");

/** Teams: any user creates one and becomes its first member; members (and administrators) manage membership. */
export const TEAM_OPERATIONS = {
  team_create: defineOperation({
    notOn: { mcp: "team membership is for people" },
    title: "Create a team",
    description: "Create a team. You become its first member. Artifacts and runs created with owner `team:NAME` are readable by every member.",
    input: TeamCreateInput,
    output: Team,
    mutates: true,
    permission: "teams:write",
    run: createTeam,
  }),
  team_read: defineOperation({
    notOn: { mcp: "team membership is for people" },
    title: "Read a team",
    description: "Read a team and its members. Only members (and administrators) can see a team.",
    input: TeamReadInput,
    output: Team,
    mutates: false,
    errors: ["not_found"],
    run: readTeam,
  }),
  team_member_add: defineOperation({
    notOn: { mcp: "team membership is for people" },
    title: "Add a team member",
    description: "Add a user to a team you belong to. Adding an existing member changes nothing.",
    input: TeamMemberInput,
    output: Team,
    mutates: true,
    idempotent: true,
    permission: "teams:write",
    errors: ["not_found"],
    run: addTeamMember,
  }),
  team_member_remove: defineOperation({
    notOn: { mcp: "team membership is for people" },
    title: "Remove a team member",
    description: "Remove a user (or yourself) from a team you belong to. The last member cannot be removed.",
    input: TeamMemberInput,
    output: Team,
    mutates: true,
    destructive: true,
    permission: "teams:write",
    errors: ["not_found"],
    run: removeTeamMember,
  }),
} as const;
