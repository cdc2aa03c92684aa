import { z } from "zod";
import { DoctorCheck } from "../doctor-check.js";
import { DROP_CATEGORIES } from "../drops/classification.js";
import { InboxSummary } from "../inbox/schemas.js";

export { CHECK_STATUSES, DoctorCheck } from "../doctor-check.js";

export const Doctor = z
  .object({ checks: z.array(DoctorCheck).describe("Database, Drops, Policy while a vetoing policy is still on, Webhooks and Inbox.") })
  .meta({ id: "Doctor", description: "Health of your receipts over the last 7 days." });

export const DoctorInput = z.strictObject({});
export const StatusInput = z.strictObject({});

export const LastReceipt = z
  .object({
    id: z.string().describe("Artifact id."),
    title: z.string().describe("Title."),
    owner: z.string().describe("`user:NAME` or `team:NAME`."),
    created_at: z.string().describe("ISO 8601 creation time."),
    url: z.string().describe("Share link."),
  })
  .describe("The newest unexpired receipt you can read.");

export const Status = z
  .object({
    last_receipt: LastReceipt.nullable(),
    drops: z
      .object({
        window_days: z.number().int().describe("The trailing window, in days."),
        counts: z
          .partialRecord(z.enum(DROP_CATEGORIES), z.number().int())
          .describe("Drops per category in the window, in gate order; categories with none are left out."),
      })
      .describe("What the gates turned away recently."),
    inbox: InboxSummary,
    lines: z.array(z.string()).describe("The same, as lines for people: `Last receipt: …`, `Drops (7d): …` and `Inbox: 3 open (1 yours), oldest 2 days`."),
  })
  .meta({ id: "Status", description: "The last receipt, the drop rollup and what waits on people." });
