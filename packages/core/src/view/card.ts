import { provenanceLine } from "../artifact/provenance-line.js";
import { artifactIdOfResourceUri } from "../artifact/resource-uri.js";
import type { Artifact } from "../artifact/schemas.js";
import type { OutcomeState } from "../inbox/rules.js";
import { DETAILS_HEADING, renderReceiptV1 } from "../receipt/render.js";
import { OUTCOME_LABELS, type OutcomeStatus } from "../receipt/schemas.js";
import { runIdOfResourceUri } from "../run/resource-uri.js";
import { type AskView, askViewOf } from "./decision.js";
import {
  acknowledgementText,
  lifetimeText,
  needsHuman,
  type OutcomeNowView,
  outcomeNowOf,
  readableMeasureAt,
  receiptMetadataOf,
  STATE_WORDS,
} from "./state.js";

export {
  acknowledgementText,
  needsHuman,
  outcomeMark,
  readableInstant,
  readableMeasureAt,
  receiptMetadataOf,
} from "./state.js";

/**
 * The receipt card as a surface shows it (SPEC §11): every label and every value, in
 * the card's order, so a surface formats and names no receipt field. `field` is the
 * value's metadata path; the web writes it as `data-field`, which the parity suite reads.
 */
export interface TextPart {
  field: string;
  label: string;
  text: string;
}

export interface ReceiptCardView {
  /** "Receipt asserted by claude · opus-5 for sam, via MCP" ("… for sam in team:finance, …" for a team's): whose claim it is, never "verified". */
  header: string;
  tldr: TextPart;
  /** `needed`: it asks a person for something; `waiting`: and nobody has acknowledged it yet (SPEC §20). */
  action: TextPart & { needed: boolean; waiting: boolean; acknowledged: string | null };
  /** "Assigned to sam", or null when nobody is. */
  assignee: { label: string; user: string } | null;
  /** Its ask (SPEC §32) as it stands now: the options and deadline while open, then who chose what; null when it asks no choice. */
  ask: AskView | null;
  /** Shown under the chip (SPEC §15): who said they saw it, oldest first. */
  acknowledgements: Array<{ user: string; at: string; note: string | null; text: string }>;
  affected: TextPart;
  before: TextPart;
  after: TextPart;
  evidence: {
    field: string;
    label: string;
    /** `open` is the web page of a Cairn resource link (mcp://cairn/runs/<id> → /runs/<id>), shown beside it; null for other links. */
    links: Array<{ field: string; label: string; url: string; open: { href: string; label: string } | null }>;
    /** Shown as a warning when no link was given. */
    empty: string | null;
    note: TextPart | null;
  };
  outcome: {
    label: string;
    status: { field: string; value: OutcomeStatus; text: string };
    measure_at: TextPart | null;
    summary: TextPart | null;
    /** The one rule's state (inbox/rules.ts): `overdue` is marked; `closed` reads "Measured in …" and links the follow-ups. */
    state: OutcomeState | null;
    /** "Overdue" or "Measured in", or null when neither applies. */
    mark: string | null;
    /** Receipts that follow it, that the viewer may read, oldest first. */
    followed_by: string[];
    /**
     * Set once a later receipt follows it: the card then says "Measured in <follow-up>" (or
     * "Measured in a later receipt" for a viewer who may not read it) instead of the stored
     * status and its measure date — the stored body keeps its words (SPEC §24).
     */
    measured: OutcomeNowView["measured"];
    /** The outcome as it stands now, as one line ("Measured in art_2", "Pending · measure at 2026-12-07 · Overdue"). */
    line: string;
  };
  /** "Expires 2026-12-31 09:00 UTC" or "Retained: it does not expire." */
  lifetime: string;
  remaining: {
    field: string;
    label: string;
    items: Array<{ field: string; item: string; owner: string }>;
    empty: string | null;
  };
  learned: TextPart;
  /** The caller's free markdown (`details`), as it sits in the body under its heading; null when none was given. */
  details: TextPart | null;
}

export const CARD_LABELS = {
  tldr: "What changed",
  action: STATE_WORDS.action,
  affected: "Who is affected",
  before: "Before",
  after: "After",
  evidence: "Evidence",
  noEvidence: "No evidence linked",
  evidenceNote: "About the evidence",
  outcome: "Outcome",
  measureAt: "Measure at",
  overdue: STATE_WORDS.overdue,
  measuredIn: STATE_WORDS.measuredIn,
  follows: STATE_WORDS.follows,
  assignee: STATE_WORDS.assignee,
  summary: "What was measured",
  remaining: "What remains",
  nothingRemains: "Nothing remains.",
  learned: "What the system now knows",
  details: "Details",
  acknowledged: STATE_WORDS.acknowledged,
} as const;

function detailsPart(artifact: Artifact): TextPart | null {
  const details = receiptDetailsOf(artifact);
  return details === null ? null : part("details", CARD_LABELS.details, details);
}

const part = (field: string, label: string, text: string): TextPart => ({ field, label, text });

/**
 * The `details` a receipt was created with. They live only in the body, after the fields
 * the frozen template rendered, so re-rendering the fields alone finds where they start.
 */
export function receiptDetailsOf(artifact: Pick<Artifact, "title" | "body" | "metadata">): string | null {
  const m = receiptMetadataOf(artifact);
  if (!m) return null;
  const fieldsOnly = renderReceiptV1({ title: artifact.title, metadata: m });
  const prefix = `${fieldsOnly.slice(0, -1)}\n\n## ${DETAILS_HEADING}\n\n`;
  if (!artifact.body.startsWith(prefix) || !artifact.body.endsWith("\n")) return null;
  return artifact.body.slice(prefix.length, -1);
}

/**
 * The card of a receipt as it stands now, or null when the artifact is not one. `now`
 * decides whether a pending outcome is overdue, by the one rule; `followed` (true even when
 * the viewer may read no follow-up, as on a share link) decides whether it was measured.
 * `now` reaches the card through the outcome's state alone (`receiptLiveStateOf`): the
 * share page's validator hashes that state in place of the card (view/validator.ts).
 */
export function receiptCardOf(artifact: Artifact, now: Date = new Date()): ReceiptCardView | null {
  const m = receiptMetadataOf(artifact);
  if (!m) return null;
  const L = CARD_LABELS;
  const outcomeNow = outcomeNowOf(m, artifact, now);
  const firstAck = artifact.acknowledgements[0];
  return {
    header: provenanceLine(artifact.provenance, "Receipt", artifact.owner),
    tldr: part("changed", L.tldr, m.changed),
    action: {
      ...part("human_action", L.action, m.human_action),
      needed: needsHuman(m),
      waiting: needsHuman(m) && firstAck === undefined,
      acknowledged: needsHuman(m) && firstAck ? acknowledgementText(firstAck) : null,
    },
    assignee: artifact.assignee === null ? null : { label: L.assignee, user: artifact.assignee },
    ask: askViewOf(artifact, now),
    acknowledgements: artifact.acknowledgements.map((a) => ({ user: a.by.user, at: a.at, note: a.note, text: acknowledgementText(a) })),
    affected: part("affected", L.affected, m.affected),
    before: part("before", L.before, m.before),
    after: part("after", L.after, m.after),
    evidence: {
      field: "evidence",
      label: L.evidence,
      links: m.evidence.map((e, i) => ({ field: `evidence.${i}`, label: e.label, url: e.url, open: webPageOf(e.url) })),
      empty: m.evidence.length === 0 ? L.noEvidence : null,
      note: m.evidence_note === undefined ? null : part("evidence_note", L.evidenceNote, m.evidence_note),
    },
    outcome: {
      label: L.outcome,
      status: { field: "outcome.status", value: m.outcome.status, text: OUTCOME_LABELS[m.outcome.status] },
      measure_at: m.outcome.measure_at === undefined ? null : part("outcome.measure_at", L.measureAt, readableMeasureAt(m.outcome.measure_at)),
      summary: m.outcome.summary === undefined ? null : part("outcome.summary", L.summary, m.outcome.summary),
      state: outcomeNow.state,
      mark: outcomeNow.mark,
      followed_by: artifact.followed_by,
      measured: outcomeNow.measured,
      line: outcomeNow.line,
    },
    lifetime: lifetimeText(artifact),
    remaining: {
      field: "remaining",
      label: L.remaining,
      items: m.remaining.map((r, i) => ({ field: `remaining.${i}`, item: r.item, owner: r.owner })),
      empty: m.remaining.length === 0 ? L.nothingRemains : null,
    },
    learned: part("learned", L.learned, m.learned),
    details: detailsPart(artifact),
  };
}

/** Where a signed-in reader opens a Cairn resource an evidence link names (by form; the page checks who may read it). */
function webPageOf(url: string): { href: string; label: string } | null {
  const run = runIdOfResourceUri(url);
  if (run !== null) return { href: `/runs/${encodeURIComponent(run)}`, label: "open the run" };
  const artifact = artifactIdOfResourceUri(url);
  return artifact === null ? null : { href: `/a/${encodeURIComponent(artifact)}`, label: "open the artifact" };
}
