import { z } from "zod";
import { TeamName, UserName } from "../identity/names.js";
import { PAGE_FIELDS } from "../paging.js";

export const Team = z
  .object({
    id: z.string().describe("Team id."),
    name: z.string().describe("Team name; artifacts and runs it owns are written `team:NAME`."),
    owner: z.string().describe("The owner reference to use on create: `team:NAME`."),
    members: z.array(z.string()).describe("Names of the member users, sorted. Every member may invite and remove members."),
    invited: z
      .array(z.string())
      .describe("Names invited and not yet answered, sorted, as they were typed: an invitation names a user only once they accept it (SPEC §37)."),
    created_at: z.string().describe("ISO 8601 creation time."),
  })
  .meta({ id: "Team", description: "A team: a named group of users that can own artifacts and runs together." });
export type Team = z.infer<typeof Team>;

export const TeamCreateInput = z
  .strictObject({ name: TeamName })
  .meta({ id: "TeamCreateInput", description: "A new team. The caller becomes its first member." });

export const TeamReadInput = z.strictObject({
  name: TeamName.describe("The team to read. Only its members (and administrators) can see it."),
});

export const TeamMemberInput = z.strictObject({
  name: TeamName.describe("The team. Only its members (and administrators) may change its membership."),
  user: UserName.describe("Name of the user to invite (an administrator adds them directly) or remove; removing someone invited withdraws the invitation."),
});

export const TeamAnswerInput = z.strictObject({
  name: TeamName.describe("The team whose invitation you answer, or that you leave, block or unblock."),
});

export const TeamLeaveInput = z.strictObject({
  name: TeamName.describe("The team to leave."),
  block: z.boolean().default(false).describe("Also block the team from inviting you again (undo with team_unblock)."),
});

export const TeamInvitation = z
  .object({
    team: z.string().describe("`team:NAME`."),
    state: z.enum(["invited", "blocked"]).describe("`invited`: waiting for your answer; `blocked`: you blocked this team, so its invitations never reach you."),
    invited_by: z.string().nullable().describe("The member who invited you, or null for a block."),
    at: z.string().describe("ISO 8601 time of the invitation or the block."),
  })
  .meta({ id: "TeamInvitation", description: "An invitation to a team waiting for your answer, or a team you blocked." });
export type TeamInvitation = z.infer<typeof TeamInvitation>;

export const TeamInvitationList = z
  .object({
    items: z.array(TeamInvitation).describe("By team name."),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
  })
  .meta({ id: "TeamInvitationList", description: "Your pending team invitations and the teams you blocked." });

export const TeamAnswer = z
  .object({
    team: z.string().describe("`team:NAME`."),
    state: z.enum(["declined", "left", "blocked", "unblocked"]).describe("What changed for you."),
    blocked: z.boolean().describe("Whether the team is now blocked from inviting you."),
  })
  .meta({ id: "TeamAnswer", description: "Your answer to a team: declined, left, blocked or unblocked." });
export type TeamAnswer = z.infer<typeof TeamAnswer>;

export const TeamInvitationListInput = z.strictObject({ ...PAGE_FIELDS });
