import { OUTCOME_LABELS, type ReceiptMetadata } from "./schemas.js";

/**
 * Template for cairn.receipt/v1. Frozen: identical fields must give identical bytes
 * forever, so any change to this output is a new schema version (cairn.receipt/v2),
 * never an edit. Golden files in __tests__/__golden__ guard it.
 *
 * `follows` is deliberately not rendered: the body is readable by every share-link
 * holder, and the id of the followed receipt may be shown only to viewers who can read
 * it (SPEC §9). The artifact's `follows` link carries it, filtered per viewer.
 */
export const RECEIPT_V1_TEMPLATE_VERSION = "cairn.receipt/v1#1";

/** The heading the caller's `details` sit under; the card finds them by it. */
export const DETAILS_HEADING = "Details";

export interface RenderableReceipt {
  title: string;
  metadata: ReceiptMetadata;
  details?: string | undefined;
}

/** Continuation lines of a list item are indented so multi-line text stays inside the item. */
function listItem(text: string): string {
  return `- ${text.replace(/\n/g, "\n  ")}`;
}

function escapeLinkLabel(label: string): string {
  return label.replace(/[\\[\]]/g, (c) => `\\${c}`).replace(/\n/g, " ");
}

/** Angle-bracket destination: only `<`, `>` and whitespace need encoding. */
function linkDestination(url: string): string {
  return `<${url.replace(/[<>\s]/g, (c) => encodeURIComponent(c))}>`;
}

function section(heading: string, ...paragraphs: string[]): string {
  return [`## ${heading}`, ...paragraphs].join("\n\n");
}

export function renderReceiptV1({ title, metadata: m, details }: RenderableReceipt): string {
  const evidence =
    m.evidence.length === 0
      ? ["_No evidence linked._"]
      : [m.evidence.map((e) => listItem(`[${escapeLinkLabel(e.label)}](${linkDestination(e.url)})`)).join("\n")];
  if (m.evidence_note !== undefined) evidence.push(m.evidence_note);

  const outcome = [`**Status:** ${OUTCOME_LABELS[m.outcome.status]}`];
  if (m.outcome.measure_at !== undefined) outcome.push(`**Measure at:** ${m.outcome.measure_at}`);
  if (m.outcome.summary !== undefined) outcome.push(m.outcome.summary);

  const remaining = m.remaining.length === 0 ? "_Nothing remains._" : m.remaining.map((r) => listItem(`${r.item} — owner: ${r.owner}`)).join("\n");

  const parts = [
    `# ${title}`,
    section("What changed", m.changed),
    section("Who is affected", m.affected),
    section("Before", m.before),
    section("After", m.after),
    section("Evidence", ...evidence),
    section("Outcome", ...outcome),
    section("What a human needs to do", m.human_action),
    section("What remains", remaining),
    section("What the system now knows", m.learned),
  ];
  if (details !== undefined) parts.push(section(DETAILS_HEADING, details));
  return `${parts.join("\n\n")}\n`;
}
