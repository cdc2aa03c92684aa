import type { Artifact } from "../artifact/schemas.js";
import { readableInstant } from "../dates.js";
import { parseOwner } from "../identity/names.js";
import type { Acknowledgement } from "../inbox/acknowledgement.js";
import { HUMAN_ACTION_LABEL } from "../inbox/format.js";
import { asksAPerson, type OutcomeState, outcomeStateOf } from "../inbox/rules.js";
import { OUTCOME_LABELS, RECEIPT_SCHEMA_ID, type ReceiptMetadata } from "../receipt/schemas.js";
import { decisionText } from "./decision.js";

/**
 * The words of a receipt's current state (SPEC §20, §24), written once: the card, the bin,
 * `cairn read`'s header, the inbox, the confirmations and the MCP renderings all use them.
 */
export const STATE_WORDS = {
  action: HUMAN_ACTION_LABEL,
  assignee: "Assigned to",
  nobodyAssigned: "Nobody is assigned.",
  acknowledged: "acknowledged",
  waiting: "Nobody has acknowledged it yet.",
  outcome: "Outcome",
  measureAt: "measure at",
  overdue: "Overdue",
  measuredIn: "Measured in",
  laterReceipt: "a later receipt",
  follows: "Follows",
  followedBy: "Followed by",
  expires: "Expires",
  retained: "Retained: it does not expire.",
} as const;

/** The confirmation each web write leaves on the next page, and the CLI prints after it (SPEC §20). */
export const CONFIRMATIONS = {
  retained: () => STATE_WORDS.retained,
  assigned: (a: Pick<Artifact, "assignee">) => (a.assignee === null ? "Nobody is assigned now." : `${STATE_WORDS.assignee} ${a.assignee}.`),
  acknowledged: () => "Acknowledged: you said you saw what it asks.",
  transferred: (a: Pick<Artifact, "owner">) => `Moved to ${a.owner}: its members read it and may be assigned it.`,
  commented: () => "Commented.",
  uncommented: () => "Comment deleted; a note says who deleted it and when.",
  decided: (a: Pick<Artifact, "decision">) => (a.decision ? `${decisionText(a.decision)}.` : "Answered."),
} as const;
export type ConfirmationName = keyof typeof CONFIRMATIONS;

/** An instant as people read it everywhere Cairn shows one: `2026-12-15 09:00 UTC`. */
export { readableInstant };

/** A `measure_at` as people read it: a date stays a date; a date-time becomes its UTC minute. */
export const readableMeasureAt = (measureAt: string) => (/^\d{4}-\d{2}-\d{2}$/.test(measureAt) ? measureAt : readableInstant(measureAt));

/** "sam acknowledged 2026-12-01 09:10 UTC": who, and when, from the server's record. */
export const acknowledgementText = (a: Acknowledgement) => `${a.by.user} ${STATE_WORDS.acknowledged} ${readableInstant(a.at)}`;

/** "Assigned to sam". */
export const assignedText = (user: string) => `${STATE_WORDS.assignee} ${user}`;

/** "Expires 2026-12-31 09:00 UTC", or that it is retained. */
export const lifetimeText = (a: Pick<Artifact, "expires_at" | "retained">) =>
  a.retained || a.expires_at === null ? STATE_WORDS.retained : `${STATE_WORDS.expires} ${readableInstant(a.expires_at)}`;

/** Receipt metadata as stored by receipt_create, or null for any other artifact. */
export function receiptMetadataOf(artifact: Pick<Artifact, "metadata">): ReceiptMetadata | null {
  // Only receipt_create writes metadata, and it stores exactly ReceiptMetadata under this schema.
  return artifact.metadata?.schema === RECEIPT_SCHEMA_ID ? (artifact.metadata as unknown as ReceiptMetadata) : null;
}

/** A receipt asks a person for something unless its action is the stored default (the one rule: "does it ask a person"). */
export const needsHuman = (m: Pick<ReceiptMetadata, "human_action">) => asksAPerson(m.human_action);

/**
 * Who may acknowledge (SPEC §15, the one rule for every page): a receipt that asks a person,
 * and a viewer who has not acknowledged it yet. Anyone else's acknowledgement does not take
 * the form away from you; the server refuses what this does not offer.
 */
export const mayAcknowledge = (a: Pick<Artifact, "metadata" | "acknowledgements">, user: string) => {
  const m = receiptMetadataOf(a);
  return m !== null && needsHuman(m) && !a.acknowledgements.some((k) => k.by.user === user);
};

/** The outcome as it stands now: measured by a later receipt, or its stored status with its due mark. */
export interface OutcomeNowView {
  /** The one rule's state (inbox/rules.ts); null when the outcome is not pending. */
  state: OutcomeState | null;
  /** "Overdue" or "Measured in", or null when neither applies. */
  mark: string | null;
  /**
   * Set once a later receipt follows it: then the card says this instead of "Pending · measure
   * at …". `followed_by` are the follow-ups the viewer may read, oldest first; when it is
   * empty (a share link's holder) `unnamed` says "a later receipt" without naming one.
   */
  measured: { label: string; followed_by: string[]; unnamed: string | null } | null;
  /** The whole of it as one line: "Measured in art_2", "Pending · measure at 2026-12-07 · Overdue", "Improved". */
  line: string;
}

/** The outcome's mark beside its status: overdue, or measured by a later receipt; null otherwise. */
export function outcomeMark(state: OutcomeState | null): string | null {
  if (state === "overdue") return STATE_WORDS.overdue;
  return state === "closed" ? STATE_WORDS.measuredIn : null;
}

type Followed = Pick<Artifact, "followed_by"> & Partial<Pick<Artifact, "followed">>;

/** Whether a later receipt follows it, readable by the viewer or not. */
const isFollowed = (a: Followed) => a.followed === true || a.followed_by.length > 0;

/**
 * The one way time reaches a receipt's card (and so its page): the outcome's state at `now`
 * (upcoming, overdue, closed), or null when the artifact is no receipt or its outcome is not
 * pending. Everything else on the card is read from the artifact alone, so the card at `now`
 * is fixed by the artifact and this (the share page's validator rests on that, ADR 0057).
 */
export function receiptLiveStateOf(artifact: Pick<Artifact, "metadata"> & Followed, now: Date): OutcomeState | null {
  const m = receiptMetadataOf(artifact);
  return m === null ? null : outcomeStateOf(m, isFollowed(artifact), now);
}

export function outcomeNowOf(m: ReceiptMetadata, artifact: Followed, now: Date, name: (id: string) => string = (id) => id): OutcomeNowView {
  const state = outcomeStateOf(m, isFollowed(artifact), now);
  const mark = outcomeMark(state);
  if (state === "closed") {
    const unnamed = artifact.followed_by.length === 0 ? STATE_WORDS.laterReceipt : null;
    const measured = { label: STATE_WORDS.measuredIn, followed_by: [...artifact.followed_by], unnamed };
    return { state, mark, measured, line: `${STATE_WORDS.measuredIn} ${unnamed ?? artifact.followed_by.map(name).join(", ")}` };
  }
  const measureAt = m.outcome.measure_at;
  const line = [
    OUTCOME_LABELS[m.outcome.status],
    ...(measureAt === undefined ? [] : [`${STATE_WORDS.measureAt} ${readableMeasureAt(measureAt)}`]),
    ...(mark === null ? [] : [mark]),
  ].join(" · ");
  return { state, mark, measured: null, line };
}

/**
 * What is true of a receipt now, beyond its immutable body, as labelled lines (SPEC §24):
 * the header `cairn read` prints above the stored body — the same facts as the card.
 */
export function receiptNowLines(
  artifact: Pick<Artifact, "metadata" | "assignee" | "acknowledgements" | "followed_by" | "follows" | "expires_at" | "retained"> &
    Partial<Pick<Artifact, "followed">>,
  now: Date,
): Array<readonly [label: string, value: string]> | null {
  const m = receiptMetadataOf(artifact);
  if (!m) return null;
  const W = STATE_WORDS;
  const lines: Array<readonly [string, string]> = [[W.assignee.toLowerCase(), artifact.assignee ?? "nobody"]];
  if (needsHuman(m)) {
    const acks = artifact.acknowledgements.map(acknowledgementText);
    lines.push([W.acknowledged, acks.length > 0 ? acks.join("; ") : W.waiting]);
  }
  lines.push([W.outcome.toLowerCase(), outcomeNowOf(m, artifact, now).line]);
  if (artifact.follows) lines.push([W.follows.toLowerCase(), artifact.follows.id]);
  if (artifact.followed_by.length > 0) lines.push([W.followedBy.toLowerCase(), artifact.followed_by.join(", ")]);
  lines.push(["lifetime", lifetimeText(artifact)]);
  return lines;
}

/**
 * Who may be assigned an artifact of `owner` (SPEC §20, the rule `assigneeIssue` enforces in
 * the write): the owner user, or the owner team's members, which `membersOf` reads.
 */
export async function assignableUsers(owner: string, membersOf: (team: string) => Promise<readonly string[]>): Promise<string[]> {
  const { kind, name } = parseOwner(owner);
  return kind === "user" ? [name] : [...(await membersOf(name))];
}

/**
 * What an empty page of the inbox says (SPEC §24): for `assignee=me`, that nothing is yours
 * and how many are open in all (`openInAll`, when known); otherwise that nothing waits.
 */
export function inboxEmptyText(request: { assignee?: unknown; state?: unknown }, openInAll?: number): string {
  if (request.assignee === "me") return `Nothing is assigned to you${openInAll === undefined ? "" : ` (${openInAll} open in all)`}.`;
  if (request.assignee === "none") return "Nothing open is unassigned.";
  if (typeof request.assignee === "string") return `Nothing is ${STATE_WORDS.assignee.toLowerCase()} ${request.assignee}.`;
  return request.state === "acknowledged" ? "Nothing has been acknowledged yet." : "Nothing waits on anyone.";
}

/** One pending outcome in a list: its state, when it is due, and — once closed — the receipt that measured it (SPEC §24). */
export function outcomeItemLine(o: { id: string; state: OutcomeState; due_at: string; receipt: Pick<Artifact, "owner" | "title" | "followed_by"> }): string {
  const closed = o.state === "closed" ? `  ${STATE_WORDS.measuredIn.toLowerCase()} ${o.receipt.followed_by.join(", ") || STATE_WORDS.laterReceipt}` : "";
  return `${o.id}  ${o.state}  due ${readableInstant(o.due_at)}${closed}  ${o.receipt.owner}  ${o.receipt.title}`;
}
