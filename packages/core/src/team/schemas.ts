import { z } from "zod";
import { TeamName, UserName } from "../identity/names.js";

export const Team = z
  .object({
    id: z.string().describe("Team id."),
    name: z.string().describe("Team name; artifacts and runs it owns are written `team:NAME`."),
    owner: z.string().describe("The owner reference to use on create: `team:NAME`."),
    members: z.array(z.string()).describe("Names of the member users, sorted. Every member may add and remove members."),
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
  user: UserName.describe("Name of the user to add or remove."),
});
