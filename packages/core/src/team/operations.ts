import { defineApiTag } from "../operations/api-tags.js";
import { defineOperation } from "../operations/define.js";
import { blockTeam, listInvitations, unblockTeam } from "./blocks.js";
import { createTeam } from "./create.js";
import { acceptInvitation, declineInvitation } from "./invitations.js";
import { addTeamMember, leaveTeam, removeTeamMember } from "./members.js";
import { readTeam } from "./read.js";
import {
  Team,
  TeamAnswer,
  TeamAnswerInput,
  TeamCreateInput,
  TeamInvitationList,
  TeamInvitationListInput,
  TeamLeaveInput,
  TeamMemberInput,
  TeamReadInput,
} from "./schemas.js";

/** This area's group in the API documentation. */
export const TEAM_TAG = defineApiTag(
  "Teams",
  "Teams own artifacts and runs together: create one, read it, invite members (they accept before they join), and leave or block a team.",
);

/**
 * Teams: any user creates one and becomes its first member; members invite, the invitee
 * answers (SPEC §37, ADR 0078); administrators may add directly.
 */
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
    title: "Invite a team member",
    description:
      "Invite a user to a team you belong to: they join when they accept (team_invitation_accept), and until then the team's receipts neither notify nor assign them. The answer is the same whether or not the name is a user. An administrator adds the user directly. Inviting an existing member changes nothing.",
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
    description: "Remove a user (or yourself) from a team you belong to, or withdraw an invitation to that name. The last member cannot be removed.",
    input: TeamMemberInput,
    output: Team,
    mutates: true,
    destructive: true,
    permission: "teams:write",
    errors: ["not_found"],
    run: removeTeamMember,
  }),
  team_invitation_list: defineOperation({
    notOn: { mcp: "team membership is for people" },
    title: "List your team invitations",
    description: "Invitations to teams waiting for your answer (each waits 14 days), and the teams you blocked.",
    input: TeamInvitationListInput,
    output: TeamInvitationList,
    mutates: false,
    run: listInvitations,
  }),
  team_invitation_accept: defineOperation({
    notOn: { mcp: "team membership is for people" },
    title: "Accept a team invitation",
    description: "Join a team that invited you. Announced as team.joined. Returns the team.",
    input: TeamAnswerInput,
    output: Team,
    mutates: true,
    permission: "teams:write",
    errors: ["not_found"],
    run: acceptInvitation,
  }),
  team_invitation_decline: defineOperation({
    notOn: { mcp: "team membership is for people" },
    title: "Decline a team invitation",
    description: "Say no to a team that invited you. It may invite you again; team_block stops that.",
    input: TeamAnswerInput,
    output: TeamAnswer,
    mutates: true,
    permission: "teams:write",
    errors: ["not_found"],
    run: declineInvitation,
  }),
  team_leave: defineOperation({
    notOn: { mcp: "team membership is for people" },
    title: "Leave a team",
    description: "Leave a team you belong to; with `block`, it cannot invite you again. The last member cannot leave.",
    input: TeamLeaveInput,
    output: TeamAnswer,
    mutates: true,
    destructive: true,
    permission: "teams:write",
    errors: ["not_found"],
    run: leaveTeam,
  }),
  team_block: defineOperation({
    notOn: { mcp: "team membership is for people" },
    title: "Block a team",
    description: "Stop a team from inviting you; an invitation it already sent stops reaching you. Your membership is unchanged (team_leave leaves).",
    input: TeamAnswerInput,
    output: TeamAnswer,
    mutates: true,
    idempotent: true,
    permission: "teams:write",
    run: blockTeam,
  }),
  team_unblock: defineOperation({
    notOn: { mcp: "team membership is for people" },
    title: "Unblock a team",
    description: "Let a team you blocked invite you again.",
    input: TeamAnswerInput,
    output: TeamAnswer,
    mutates: true,
    idempotent: true,
    permission: "teams:write",
    run: unblockTeam,
  }),
} as const;
