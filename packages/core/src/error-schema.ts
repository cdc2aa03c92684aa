import { z } from "zod";
import { DROP_CATEGORIES } from "./drops/classification.js";
import { ERROR_CODES } from "./errors.js";

export const IssueSchema = z
  .object({
    field: z.string().describe("Dotted path of the failing field, e.g. evidence.2.url."),
    reason: z.string().describe("What is wrong, for a person to act on."),
    limit: z.number().optional().describe("The limit that was exceeded, when one applies."),
  })
  .meta({ id: "Issue" });

export const DropSchema = z
  .object({
    id: z.string().optional().describe("Id of the persisted drop receipt."),
    category: z.enum(DROP_CATEGORIES).describe("Why the submission was dropped."),
    recoverable: z.boolean().describe("Whether the caller can change the outcome."),
    cause: z.string().describe("Plain-language cause."),
    next_action: z.string().describe("What to do about it."),
    fields: z.array(z.string()).describe("Failing field paths (never their values)."),
  })
  .meta({ id: "Drop", description: "The classification of a refused receipt submission." });

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z
        .enum(ERROR_CODES)
        .describe("Stable machine-readable code."),
      message: z.string().describe("Human-readable summary."),
      issues: z.array(IssueSchema).optional(),
      drop: DropSchema.optional(),
      existing: z.object({ id: z.string(), url: z.string() }).optional().describe("The artifact a duplicate matched."),
    }),
  })
  .meta({ id: "Error", description: "Every error, on every surface." });
