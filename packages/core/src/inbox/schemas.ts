import { z } from "zod";
import { Artifact, ArtifactReadInput } from "../artifact/schemas.js";
import { Ask, DECISION_STATES, Decision } from "../decision/schemas.js";
import { OwnerRef, UserName } from "../identity/names.js";
import { PAGE_FIELDS } from "../paging.js";
import { optionalText } from "../text.js";
import { Acknowledgement } from "./acknowledgement.js";
import { ACTION_STATES, OUTCOME_STATES } from "./rules.js";

export { Acknowledgement } from "./acknowledgement.js";

/** Longest acknowledgement note, in UTF-16 code units after trimming (SPEC §15). */
export const ACK_NOTE_MAX = 1_000;

/** The same id field as every other verb that names an artifact, so one text rule covers them all. */
const ArtifactId = ArtifactReadInput.shape.id.describe("Artifact id of the receipt.");

export const AcknowledgeInput = z.strictObject({
  id: ArtifactId,
  note: optionalText(
    ACK_NOTE_MAX,
    `Optional: what you did or decided, at most ${ACK_NOTE_MAX} characters, e.g. "Approved in #finance". Secrets in it are redacted (or refused) by the owner's policy.`,
  ),
});

export const InboxListInput = z.strictObject({
  state: z
    .enum([...ACTION_STATES, "all"])
    .default("open")
    .describe("`open` (default): actions nobody has acknowledged yet; `acknowledged`; or `all`."),
  owner: OwnerRef.optional().describe("Only this owner (`user:NAME` or `team:NAME`, one you act for). Default: you and your teams."),
  assignee: UserName.optional().describe("Only what is assigned to `me` (you), to `none` (nobody), or to the user NAME (a bare user name). Default: all."),
  ...PAGE_FIELDS,
});

export const Age = z
  .object({
    seconds: z.number().int().describe("Seconds since the receipt was created."),
    days: z.number().int().describe("Whole days since the receipt was created."),
    text: z.string().describe("The same for people, e.g. `2 days` or `5 hours`."),
  })
  .describe("How long the action has been waiting.");

export const InboxAsk = z
  .object({
    state: z
      .enum(DECISION_STATES)
      .describe("`open` while nobody answered and `answer_by` has not passed, `decided` once someone did, `expired` after `answer_by`."),
    options: Ask.shape.options,
    answer_by: Ask.shape.answer_by,
    decision: Decision.nullable().describe("The answer or the expiry, or null while open."),
    text: z
      .string()
      .describe("The same for people, e.g. `? approve | reject — answer by 2026-12-09 10:00 UTC`, or `Decided: Approve — sam, 2026-12-07 10:00 UTC`."),
  })
  .describe("The receipt's ask with fixed answers (SPEC §32) as it stands now.");

export const InboxItem = z
  .object({
    id: z.string().describe("Artifact id of the receipt."),
    state: z.enum(ACTION_STATES).describe("`open` until a person acknowledges it, then `acknowledged`."),
    human_action: z.string().describe("What the receipt asks, as stored in its metadata, e.g. `Rotate the key`."),
    assignee: z.string().nullable().describe("The user who must act (a bare user name), or null when nobody is assigned."),
    age: Age,
    acknowledgements: z.array(Acknowledgement).describe("Who said they saw it, oldest first."),
    ask: InboxAsk.nullable().describe("Its ask with fixed answers, or null when it asks none. Open asks come first in the inbox."),
    receipt: Artifact,
  })
  .meta({ id: "InboxItem", description: "A receipt that asks a person for something." });
export type InboxItem = z.infer<typeof InboxItem>;

export const InboxList = z
  .object({
    items: z.array(InboxItem),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
  })
  .meta({ id: "InboxList", description: "One page of the inbox: open asks first, then the rest, each newest first." });

export const OutcomesListInput = z.strictObject({
  state: z
    .enum(["overdue", "upcoming", "all"])
    .default("overdue")
    .describe("`overdue` (default): due and nothing follows it yet; `upcoming`: not yet due; `all`: both, and those a later receipt closed."),
  owner: OwnerRef.optional().describe("Only this owner (`user:NAME` or `team:NAME`, one you act for). Default: you and your teams."),
  ...PAGE_FIELDS,
});

export const OutcomeItem = z
  .object({
    id: z.string().describe("Artifact id of the pending receipt."),
    state: z.enum(OUTCOME_STATES).describe("`overdue`, `upcoming`, or `closed` once a receipt follows it."),
    measure_at: z.string().describe("The receipt's `outcome.measure_at`, as written."),
    due_at: z.string().describe("ISO 8601 time it comes due: a date-only `measure_at` is due from the start of that day (UTC)."),
    human_action: z.string().describe("What the receipt asks, as stored in its metadata (`Nothing` when it asks nothing)."),
    receipt: Artifact,
  })
  .meta({ id: "OutcomeItem", description: "A pending outcome and when it comes due." });
export type OutcomeItem = z.infer<typeof OutcomeItem>;

export const OutcomeList = z
  .object({
    items: z.array(OutcomeItem),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
  })
  .meta({ id: "OutcomeList", description: "One page of pending outcomes, the one due first at the top." });

export const InboxSummary = z
  .object({
    open: z.number().int().describe("Open actions: receipts asking a person for something that nobody has acknowledged."),
    mine: z.number().int().describe("Of those, how many are assigned to you."),
    oldest_open_days: z.number().int().nullable().describe("Age in whole days of the oldest open action; null when none is open."),
    oldest_open_id: z.string().nullable().describe("Its artifact id; null when none is open."),
    stale: z.number().int().describe("Open actions older than 3 days (doctor warns about them)."),
    overdue: z.number().int().describe("Pending outcomes that are due and that no receipt follows yet."),
    oldest_overdue_id: z.string().nullable().describe("Artifact id of the outcome that came due first; null when none is overdue."),
  })
  .describe("What waits on people: open actions and overdue outcomes.");
export type InboxSummary = z.infer<typeof InboxSummary>;
