import { z } from "zod";
import { CALENDAR_YEARS_REASON, calendarError, isCalendarDateTime, isWithinCalendarYears } from "../dates.js";
import { optionalText, requiredText, storableId, storableString } from "../text.js";

/** SPEC §32's bounds on an ask. */
export const ASK_LIMITS = { minOptions: 2, maxOptions: 6, label: 80, comment: 1_000, waitSeconds: 60 } as const;

export const OPTION_ID_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;
export const COMMENT_RULES = ["none", "optional", "required"] as const;
export type CommentRule = (typeof COMMENT_RULES)[number];

/** Who answered from where: set by the surface that carried the answer, never by the client. */
export const DECISION_VIAS = ["web", "cli", "rest", "slack", "email", "ntfy", "mcp-app"] as const;
export type DecisionVia = (typeof DECISION_VIAS)[number];

/** `48h`, `7d`, `30m`: a deadline relative to when the receipt is stored. */
const DURATION = /^(\d{1,6})([mhd])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds of a duration such as `48h`, or null when `value` is not one. */
export function durationMs(value: string): number | null {
  const match = DURATION.exec(value);
  if (!match) return null;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

const isInstantOrDuration = (value: string) =>
  durationMs(value) !== null || (isCalendarDateTime(value, { dateOnly: false }) && !Number.isNaN(Date.parse(value)));

export const AskOption = z
  .strictObject({
    id: storableString()
      .regex(OPTION_ID_PATTERN, { message: "must match ^[a-z][a-z0-9_-]{0,31}$ (a lowercase letter, then up to 31 of a-z, 0-9, _ or -)" })
      .describe('What the agent reads back, e.g. "approve". A lowercase letter, then up to 31 of a-z, 0-9, _ or -.'),
    label: requiredText(ASK_LIMITS.label, `What the person reads on the button, e.g. "Approve", at most ${ASK_LIMITS.label} characters.`),
  })
  .describe("One answer the person can choose.");

/** The ask as sent (SPEC §32): the question is the receipt's human_action. */
export const AskInput = z
  .strictObject({
    options: z
      .array(AskOption)
      .min(ASK_LIMITS.minOptions)
      .max(ASK_LIMITS.maxOptions)
      .superRefine((options, ctx) => {
        const seen = new Set<string>();
        options.forEach((option, i) => {
          if (seen.has(option.id)) ctx.addIssue({ code: "custom", path: [i, "id"], message: `repeats the option id "${option.id}"; ids must be unique` });
          seen.add(option.id);
        });
      })
      .describe(`The answers, ${ASK_LIMITS.minOptions} to ${ASK_LIMITS.maxOptions}, each {id, label}; ids unique.`),
    comment: z.enum(COMMENT_RULES).default("optional").describe("Whether the person may add a comment: `none`, `optional` (default) or `required`."),
    answer_by: storableString()
      .overwrite((s) => s.trim())
      .max(64)
      .refine(isInstantOrDuration, {
        error: calendarError('must be an ISO 8601 date-time with a zone (2026-12-09T17:00:00Z) or a duration such as "48h", "7d" or "30m"'),
        abort: true,
      })
      .refine((s) => durationMs(s) !== null || isWithinCalendarYears(s), CALENDAR_YEARS_REASON)
      .optional()
      .describe('Optional deadline: an instant, or a duration from now such as "48h" or "7d" (stored as an instant). After it the ask is expired.')
      .meta({ examples: ["48h", "7d", "2026-12-09T17:00:00Z"] }),
  })
  // No component id: the ask is inlined where the receipt's input is published (JSON Schema, the MCP tool).
  .meta({
    description:
      "Ask the person a question with fixed answers: the question is the receipt's human_action (which must not be Nothing). Not part of the body; shown as live state.",
    examples: [
      {
        options: [
          { id: "approve", label: "Approve" },
          { id: "reject", label: "Reject" },
        ],
        comment: "optional",
        answer_by: "48h",
      },
    ],
  });
export type AskInput = z.output<typeof AskInput>;

/** The ask as stored and answered: `answer_by` an instant or null. */
export const Ask = z
  .object({
    options: z.array(z.object({ id: z.string(), label: z.string() })).describe("The answers the person can choose, in order."),
    comment: z.enum(COMMENT_RULES).describe("Whether a comment is `none`, `optional` or `required`."),
    answer_by: z.string().nullable().describe("ISO 8601 deadline, or null when the ask never expires."),
  })
  .meta({ id: "Ask", description: "The question a receipt asks, with its answers." });
export type Ask = z.infer<typeof Ask>;

export const DecidedBy = z
  .object({ user: z.string().describe("The user who answered."), token_name: z.string().describe("The name of the token (or sign-in) they answered with.") })
  .describe("Who answered, from the credential.");

export const Decision = z
  .discriminatedUnion("state", [
    z.object({
      state: z.literal("decided"),
      option: z.string().describe("The chosen option's id."),
      label: z.string().describe("The chosen option's label."),
      comment: z.string().nullable().describe("The person's comment (after secret redaction), or null."),
      by: DecidedBy,
      via: z.enum(DECISION_VIAS).describe("Where the answer was given."),
      at: z.string().describe("ISO 8601 time of the answer."),
    }),
    z.object({ state: z.literal("expired"), at: z.string().describe("ISO 8601 time the ask expired (its answer_by).") }),
  ])
  .meta({ id: "Decision", description: "The answer to a receipt's ask, or its expiry." });
export type Decision = z.infer<typeof Decision>;

const ArtifactId = storableId(64, "Artifact id of the receipt that asks.");

export const DecideInput = z.strictObject({
  id: ArtifactId,
  option: storableId(64, "The id of the chosen option, e.g. approve."),
  comment: optionalText(ASK_LIMITS.comment, `Optional (or required, as the ask says): why, at most ${ASK_LIMITS.comment} characters. Secret-scanned.`),
});
export type DecideInput = z.output<typeof DecideInput>;

export const DecisionWaitInput = z.strictObject({
  id: ArtifactId,
  wait: z.coerce
    .number()
    .int()
    .min(0)
    .max(ASK_LIMITS.waitSeconds)
    .optional()
    .describe(`Seconds to hold the request while the ask is open, 0 to ${ASK_LIMITS.waitSeconds} (default 0: answer at once).`),
  timeout_s: z.coerce
    .number()
    .int()
    .min(0)
    .max(ASK_LIMITS.waitSeconds)
    .optional()
    .describe(`The same as \`wait\` (the MCP tool's spelling), 0 to ${ASK_LIMITS.waitSeconds}.`),
});
export type DecisionWaitInput = z.output<typeof DecisionWaitInput>;

export const DECISION_STATES = ["open", "decided", "expired"] as const;

export const DecisionState = z
  .object({
    state: z.enum(DECISION_STATES).describe("`open` while nobody answered, `decided` once someone did, `expired` after answer_by."),
    decision: Decision.nullable().describe("The decision, or null while open."),
  })
  .meta({ id: "DecisionState", description: "Where a receipt's ask stands." });
export type DecisionState = z.infer<typeof DecisionState>;
