import { z } from "zod";
import { DropReceipt } from "./drops/schemas.js";
import { ERROR_CODES } from "./errors.js";

export const IssueSchema = z
  .object({
    field: z.string().describe("Dotted path of the failing field, e.g. evidence.2.url."),
    reason: z.string().describe("What is wrong, for a person to act on."),
    limit: z.number().optional().describe("The limit that was exceeded, when one applies."),
  })
  .meta({ id: "Issue" });

/** The error's `drop` is the persisted drop receipt itself (the same object GET /v1/drops lists). */
export const DropSchema = DropReceipt;

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES).describe("Stable machine-readable code."),
      message: z.string().describe("Human-readable summary."),
      issues: z.array(IssueSchema).optional(),
      drop: DropSchema.optional(),
      existing: z.object({ id: z.string(), url: z.string() }).optional().describe("The artifact a duplicate matched."),
      request_id: z
        .string()
        .optional()
        .describe("The request's id: the same as the `X-Request-Id` header answered and the id in the server's log. Quote it when you report a problem."),
    }),
  })
  .meta({ id: "Error", description: "Every error, on every surface." });
