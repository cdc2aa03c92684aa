import { z } from "zod";

export const CHECK_STATUSES = ["ok", "warn", "fail"] as const;

/**
 * One finding of doctor. It sits below the areas because each area reports its own checks
 * (events, notify, inbox) and health only gathers them.
 */
export const DoctorCheck = z
  .object({
    name: z.string().describe("What was checked: Database, Drops, Policy, Inbox."),
    status: z.enum(CHECK_STATUSES).describe("`ok`, `warn` (something to act on) or `fail` (broken)."),
    summary: z.string().describe("One line saying what was found."),
    next_action: z.string().optional().describe("What to do about it, when there is something to do."),
  })
  .meta({ id: "DoctorCheck", description: "One finding of doctor." });
export type DoctorCheck = z.infer<typeof DoctorCheck>;
