import { z } from "zod";
import { OwnerRef } from "../identity/names.js";
import { LIMITS } from "../limits.js";
import { Tags } from "../tags.js";
import { optionalText, requiredText, titleText } from "../text.js";

export const RECEIPT_SCHEMA_ID = "cairn.receipt/v1";

const listOf = <T extends z.ZodType>(item: T, description: string) =>
  z.array(item).max(LIMITS.listItems).describe(description);

export const EvidenceLink = z
  .strictObject({
    label: requiredText(LIMITS.text, "What the link shows, e.g. \"CI run 4812 (green)\" or \"dashboard: error rate\"."),
    url: z
      .string()
      .overwrite((s) => s.trim())
      .min(1)
      .max(LIMITS.url)
      .describe("Where to see it. Only https:, http: and mcp://cairn/ URLs are accepted; the server never fetches them.")
      .meta({ pattern: "^(https?:|mcp://cairn/)" }),
  })
  .describe("One piece of evidence that the change is actually active.");

export const OUTCOME_STATUSES = ["measured", "pending", "not_applicable"] as const;

/** ISO 8601 date (2026-12-01) or date-time with a zone (2026-12-01T09:00:00Z). */
const ISO_DATE_OR_DATETIME =
  /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

export function isIsoDateOrDateTime(value: string): boolean {
  return ISO_DATE_OR_DATETIME.test(value) && !Number.isNaN(Date.parse(value));
}

export const Outcome = z
  .strictObject({
    status: z
      .enum(OUTCOME_STATUSES)
      .describe(
        "`measured` when you checked the result (give `summary`), `pending` when it can only be measured later (give `measure_at`), `not_applicable` when there is nothing to measure.",
      ),
    summary: optionalText(LIMITS.text, "What the measurement showed. Required when status is `measured`."),
    measure_at: z
      .string()
      .overwrite((s) => s.trim())
      .refine(isIsoDateOrDateTime, "must be an ISO 8601 date (2026-12-01) or date-time with a zone (2026-12-01T09:00:00Z)")
      .optional()
      .describe("When the outcome will be measured: ISO 8601 date or date-time. Required when status is `pending`."),
  })
  .superRefine((outcome, ctx) => {
    if (outcome.status === "measured" && outcome.summary === undefined) {
      ctx.addIssue({ code: "custom", path: ["summary"], message: "is required when status is measured" });
    }
    if (outcome.status === "pending" && outcome.measure_at === undefined) {
      ctx.addIssue({ code: "custom", path: ["measure_at"], message: "is required when status is pending" });
    }
  })
  .describe("Did it produce the intended outcome, or when will that be measured?");

export const RemainingItem = z
  .strictObject({
    item: requiredText(LIMITS.text, "What is left to do."),
    owner: requiredText(LIMITS.text, "Who owns it: a person, team or agent name."),
  })
  .describe("One thing that remains, with its owner.");

/** The nine answers, as stored in `metadata` (with `schema` first). */
export const ReceiptFields = z.strictObject({
  changed: requiredText(
    LIMITS.text,
    "What changed? The TL;DR a busy reader sees first, in at least three words, e.g. \"Nightly export now retries failed uploads\".",
  ),
  affected: requiredText(LIMITS.text, "Who experiences the change? Users, teams, services or systems."),
  before: requiredText(LIMITS.text, "What happened previously, before the change."),
  after: requiredText(LIMITS.text, "What happens now, after the change."),
  evidence: listOf(
    EvidenceLink,
    "How do we know it is actually active? Links to runs, dashboards, commits or pages. Required; may be empty (the card then warns \"No evidence linked\").",
  ),
  evidence_note: optionalText(LIMITS.text, "Anything the evidence links do not show."),
  outcome: Outcome,
  human_action: optionalText(
    LIMITS.text,
    "What must a human do now? Omit it when nothing is needed: the server stores \"Nothing\".",
  ),
  remaining: listOf(RemainingItem, "What remains, and who owns it. Required; may be empty."),
  learned: requiredText(
    LIMITS.text,
    "What does the system now know that it didn't? Always state it; \"nothing new\" is a valid answer.",
  ),
  follows: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("Id of an earlier receipt of the same owner for the same work, e.g. when an outcome is measured later."),
});
export type ReceiptFields = z.infer<typeof ReceiptFields>;

/** The flat create input shared by REST, MCP and the CLI file: the fields plus presentation and routing. */
export const ReceiptCreateInput = ReceiptFields.extend({
  schema: z
    .string()
    .optional()
    .describe("The metadata schema. Defaults to cairn.receipt/v1, the only registered receipt schema."),
  title: titleText(LIMITS.title, "Card and list title, one line. Defaults to the first line of `changed`, cut to 120 characters.").optional(),
  details: optionalText(LIMITS.details, "Free markdown appended to the body under a Details heading."),
  tags: Tags.optional(),
  model: optionalText(LIMITS.model, "The model that wrote the receipt, e.g. opus-5. Shown as a claim, never verified."),
  owner: OwnerRef.optional(),
})
  .meta({
    id: "ReceiptCreateInput",
    description:
      "A structured receipt: what changed, who is affected, before/after, evidence, outcome, human action, what remains and what was learned.",
  });
export type ReceiptCreateInput = z.input<typeof ReceiptCreateInput>;

/** Receipt metadata as stored: `schema` first, `human_action` defaulted, keys in schema order. */
export type ReceiptMetadata = { schema: typeof RECEIPT_SCHEMA_ID } & Omit<ReceiptFields, "human_action"> & {
  human_action: string;
};

export const DEFAULT_HUMAN_ACTION = "Nothing";
