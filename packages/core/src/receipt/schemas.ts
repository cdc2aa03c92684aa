import { z } from "zod";
import { ARTIFACT_RESOURCE_PATTERN } from "../artifact/resource-uri.js";
import { CALENDAR_YEARS_REASON, calendarError, isCalendarDateTime, isWithinCalendarYears } from "../dates.js";
import { AskInput } from "../decision/schemas.js";
import { AssigneeName, OwnerRef } from "../identity/names.js";
import { LIMITS } from "../limits.js";
import { RUN_RESOURCE_PATTERN } from "../run/resource-uri.js";
import { Tags } from "../tags.js";
import { optionalText, requiredText, storableId, storableString, titleText } from "../text.js";
import { receiptExample } from "./example.js";

export const RECEIPT_SCHEMA_ID = "cairn.receipt/v1";

const listOf = <T extends z.ZodType>(item: T, description: string, examples: unknown[]) => z.array(item).max(LIMITS.listItems).meta({ description, examples });

export const EvidenceLink = z
  .strictObject({
    label: requiredText(LIMITS.text, 'What the link shows, so a reader knows why to open it, e.g. "CI run 4812 (green)" or "dashboard: error rate".'),
    url: storableString()
      .overwrite((s) => s.trim())
      .min(1)
      .max(LIMITS.url)
      .describe(
        "Where to see it: an https: or http: URL, mcp://cairn/artifacts/<id> for another Cairn artifact, or mcp://cairn/runs/<run id> for a Cairn run (a trace). No other scheme is accepted; the server never fetches them.",
      )
      .meta({
        pattern: `^(https?:|${ARTIFACT_RESOURCE_PATTERN.slice(1)}|${RUN_RESOURCE_PATTERN.slice(1)})`,
        examples: [
          "https://ci.example.com/runs/4812",
          "mcp://cairn/artifacts/art_01jd8x3q5v7w9y2b4c6d8f0g1h",
          "mcp://cairn/runs/run_01jd8x3q5v7w9y2b4c6d8f0g1h",
        ],
      }),
  })
  .describe("One piece of evidence that the change is actually active: a label and a link.");

export const OUTCOME_STATUSES = ["measured", "pending", "not_applicable"] as const;
export type OutcomeStatus = (typeof OUTCOME_STATUSES)[number];

/**
 * How each status reads, on the card and in the rendered body. The body's template is
 * frozen (golden files), so changing a label here is a new schema version.
 */
export const OUTCOME_LABELS: { readonly [S in OutcomeStatus]: string } = {
  measured: "Measured",
  pending: "Pending",
  not_applicable: "Not applicable",
};

/**
 * The too-thin gate's rule (LIMITS.minChangedWords words) as a JSON Schema pattern, so a
 * model filling the tool schema sees it; the gate itself still decides and leaves the drop.
 */
export const THREE_WORDS_PATTERN = `^\\s*\\S+(\\s+\\S+){${LIMITS.minChangedWords - 1},}`;

/** The field each status requires: the one rule of an outcome, checked below and stated in its JSON Schema. */
const OUTCOME_REQUIRES = { measured: "summary", pending: "measure_at", not_applicable: null } as const satisfies {
  readonly [S in OutcomeStatus]: string | null;
};

/**
 * The outcome rule as JSON Schema, what a model or an SDK generator reads where zod's
 * refinement is invisible: one shape per status, naming the field it requires. Each
 * shape defines every property it requires (linters and generators read a subschema on
 * its own), and the shapes sit in `allOf`, so generators read them as a constraint on
 * the outcome's properties (a typed client then needs `summary` when status is
 * `measured`), not as an alternative to them.
 */
const OUTCOME_SHAPES = OUTCOME_STATUSES.map((status) => {
  const field = OUTCOME_REQUIRES[status];
  return field === null
    ? { properties: { status: { const: status } }, required: ["status"] }
    : { properties: { status: { const: status }, [field]: true }, required: ["status", field] };
});

/** The shape of measure_at as a JSON Schema pattern, for a model; the calendar check below decides. */
const ISO_DATE_OR_DATETIME_PATTERN = "^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2}))?$";

/** ISO 8601 date (2026-12-01) or date-time with a zone (2026-12-01T09:00:00Z), on the real calendar. */
export function isIsoDateOrDateTime(value: string): boolean {
  return isCalendarDateTime(value, { dateOnly: true }) && !Number.isNaN(Date.parse(value));
}

export const Outcome = z
  .strictObject({
    status: z
      .enum(OUTCOME_STATUSES)
      .describe(
        "`measured` when you checked the result (then give `summary`), `pending` when it can only be measured later (then give `measure_at`), `not_applicable` when there is nothing to measure.",
      ),
    summary: optionalText(
      LIMITS.text,
      'What the measurement showed, with numbers where you have them, e.g. "error rate fell from 2.1% to 0.3%". Required when status is `measured`.',
    ),
    measure_at: storableString()
      .overwrite((s) => s.trim())
      .max(64)
      .refine(isIsoDateOrDateTime, {
        error: calendarError("must be an ISO 8601 date (2026-12-01) or date-time with a zone (2026-12-01T09:00:00Z)"),
        abort: true,
      })
      .refine(isWithinCalendarYears, CALENDAR_YEARS_REASON)
      .optional()
      .describe("When the outcome can be measured: ISO 8601 date (2026-12-01) or date-time with a zone. Required when status is `pending`.")
      .meta({ pattern: ISO_DATE_OR_DATETIME_PATTERN, examples: ["2026-12-08", "2026-12-08T09:00:00Z"] }),
  })
  .superRefine((outcome, ctx) => {
    const field = OUTCOME_REQUIRES[outcome.status];
    if (field !== null && outcome[field] === undefined) {
      ctx.addIssue({ code: "custom", path: [field], message: `is required when status is ${outcome.status}` });
    }
  })
  .meta({
    description:
      "Did it produce the intended outcome, or when will that be measured? An object with `status` and, depending on it, `summary` (when measured) or `measure_at` (when pending).",
    allOf: [{ anyOf: OUTCOME_SHAPES }],
    examples: [
      { status: "measured", summary: "error rate fell from 2.1% to 0.3% over 24 hours" },
      { status: "pending", measure_at: "2026-12-08" },
      { status: "not_applicable" },
    ],
  });

export const RemainingItem = z
  .strictObject({
    item: requiredText(LIMITS.text, "What is left to do, as a task someone can pick up."),
    owner: requiredText(LIMITS.text, 'Who owns it: a person, team or agent name, e.g. "sam" or "platform team".'),
  })
  .describe("One thing that remains, with its owner.");

/** The nine answers, as stored in `metadata` (with `schema` first). */
export const ReceiptFields = z.strictObject({
  changed: requiredText(
    LIMITS.text,
    'What changed? The TL;DR a busy reader sees first, in at least three words, e.g. "Nightly export now retries failed uploads".',
  ).meta({ pattern: THREE_WORDS_PATTERN, examples: ["Nightly export now retries failed uploads"] }),
  affected: requiredText(
    LIMITS.text,
    'Who experiences the change? Name the users, teams, services or systems, e.g. "Finance analysts who read the morning export".',
  ),
  before: requiredText(
    LIMITS.text,
    'What happened before the change, as those affected saw it? E.g. "A failed upload left the export empty until someone re-ran it".',
  ),
  after: requiredText(
    LIMITS.text,
    'What happens now that the change is in place? E.g. "Failed uploads are retried three times; the export is complete by 06:00".',
  ),
  evidence: listOf(
    EvidenceLink,
    'How do we know it is actually active? Links to runs, dashboards, commits or pages that show it working. Required: send [] when you have none (the card then warns "No evidence linked").',
    [[{ label: "CI run 4812 (green)", url: "https://ci.example.com/runs/4812" }], []],
  ),
  evidence_note: optionalText(LIMITS.text, "Optional: what the evidence links do not show, e.g. how you exercised the change by hand."),
  outcome: Outcome,
  human_action: optionalText(
    LIMITS.text,
    'What must a human do now? One concrete action, e.g. "Approve the retry budget in the finance channel". Omit it when nothing is needed: it defaults to "Nothing".',
  ),
  remaining: listOf(RemainingItem, "What is left undone, and who owns each item? Required: send [] when nothing remains.", [
    [{ item: "Remove the old cron entry", owner: "platform team" }],
    [],
  ]),
  learned: requiredText(
    LIMITS.text,
    'What does the system now know that it didn\'t before? E.g. a cause found or an assumption disproved. Always required: when nothing was learned, say "nothing new".',
  ),
  follows: storableId(64, "Id of an earlier receipt of the same owner for the same work, e.g. when an outcome is measured later.").optional(),
});
export type ReceiptFields = z.infer<typeof ReceiptFields>;

/** The flat create input shared by REST, MCP and the CLI file: the fields plus presentation and routing. */
export const ReceiptCreateInput = ReceiptFields.extend({
  schema: storableId(200, "The metadata schema.").optional().describe("The metadata schema. Defaults to cairn.receipt/v1, the only registered receipt schema."),
  title: titleText(LIMITS.title, "Card and list title, one line. Defaults to the first line of `changed`, cut to 120 characters.").optional(),
  details: optionalText(
    LIMITS.details,
    "Optional free markdown for what the fields do not hold (notes, commands, excerpts), appended to the body under a Details heading.",
  ),
  tags: Tags.optional(),
  model: optionalText(LIMITS.model, "The model that wrote the receipt, e.g. opus-5. Shown as a claim, never verified."),
  owner: OwnerRef.optional(),
  assignee: AssigneeName.optional(),
  ask: AskInput.optional(),
  expires_in: z
    .number()
    .int()
    .min(60)
    .optional()
    .describe("Expire sooner than the owner's default: seconds from now, at least 60 and at most the owner's TTL (default_ttl_days). Not part of the body."),
}).meta({
  id: "ReceiptCreateInput",
  description: "A structured receipt: what changed, who is affected, before/after, evidence, outcome, human action, what remains and what was learned.",
  // Documentation's example (OpenAPI, JSON Schema, MCP): the template's receipt, dated so it stays in the future a while.
  examples: [receiptExample(new Date("2027-06-01T00:00:00Z"))],
});
export type ReceiptCreateInput = z.input<typeof ReceiptCreateInput>;

/** Receipt metadata as stored: `schema` first, `human_action` defaulted, keys in schema order. */
export type ReceiptMetadata = { schema: typeof RECEIPT_SCHEMA_ID } & Omit<ReceiptFields, "human_action"> & {
    human_action: string;
  };

export const DEFAULT_HUMAN_ACTION = "Nothing";
