import type { RenderableReceipt } from "./render.js";

/**
 * What `q` finds a cairn.receipt/v1 receipt by (ADR 0074): its title, what each answer
 * says (evidence labels and links, the outcome's summary, each remaining item and its
 * owner), and its details. Not the rendered body: the template's headings and labels
 * ("What changed", "Who is affected", "Status: Pending", …) are in every receipt, so they
 * told one receipt from another by nothing, and a pending receipt's body still reads
 * "Pending" after its outcome is measured. PostgreSQL turns this text into the search
 * vector as the receipt is written, so it is searchable when the answer is sent.
 */
export function receiptSearchTextV1({ title, metadata: m, details }: RenderableReceipt): string {
  const parts = [title, m.changed, m.affected, m.before, m.after];
  for (const e of m.evidence) parts.push(e.label, e.url);
  if (m.evidence_note !== undefined) parts.push(m.evidence_note);
  if (m.outcome.summary !== undefined) parts.push(m.outcome.summary);
  parts.push(m.human_action);
  for (const r of m.remaining) parts.push(r.item, r.owner);
  parts.push(m.learned);
  if (details !== undefined) parts.push(details);
  return parts.join("\n");
}
