import type { ArtifactRow } from "../artifact/internal.js";
import { checksumOf } from "../checksum.js";
import { isRegisteredSchema, SCHEMA_REGISTRY } from "../receipt/registry.js";

export const STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
export const RECEIPT_PREDICATE_TYPE = "https://cairn.dev/receipt/v1";
/** A receipt's answered or expired ask (SPEC §32): its own line, about the same subject, signed like the receipt. */
export const DECISION_PREDICATE_TYPE = "https://cairn.dev/decision/v1";

/** Everything the body is rendered from, and whose claim it is (SPEC §16). */
export interface ReceiptPredicate {
  title: string;
  metadata: Record<string, unknown> | null;
  details: string | null;
  provenance: unknown;
  created_at: string;
  owner: string;
}

export interface Statement {
  _type: typeof STATEMENT_TYPE;
  subject: Array<{ name: string; digest: { sha256: string } }>;
  predicateType: typeof RECEIPT_PREDICATE_TYPE;
  predicate: ReceiptPredicate;
}

/** The subject names the artifact by id, never by share url: the url is a read capability. */
const subjectName = (id: string) => `cairn:${id}`;

const DETAILS_HEADING = "\n\n## Details\n\n";

/**
 * The details a receipt's body was rendered from. Stored since migration 0008; for an
 * older receipt (details null) whose body has a Details section, the text after one of
 * its Details headings — the one whose re-rendered body matches the stored checksum, so
 * a guess is never exported. Null when none does.
 */
export function detailsOf(row: Pick<ArtifactRow, "title" | "metadata" | "details" | "body" | "checksum">): string | null {
  if (row.details !== undefined && row.details !== null) return row.details;
  if (row.metadata === null || !row.body.includes(DETAILS_HEADING)) return null;
  for (let at = row.body.lastIndexOf(DETAILS_HEADING); at >= 0; at = row.body.lastIndexOf(DETAILS_HEADING, at - 1)) {
    const candidate = row.body.slice(at + DETAILS_HEADING.length).replace(/\n$/, "");
    const rendered = rerender({ title: row.title, metadata: row.metadata, details: candidate });
    if (rendered.ok && rendered.checksum === row.checksum) return candidate;
    if (at === 0) break;
  }
  return null;
}

/** An in-toto Statement v1 for a stored receipt. Keys are built in a fixed order, so the bytes are stable. */
export function statementOf(row: ArtifactRow): Statement {
  return {
    _type: STATEMENT_TYPE,
    subject: [{ name: subjectName(row.id), digest: { sha256: row.checksum.replace(/^sha256:/, "") } }],
    predicateType: RECEIPT_PREDICATE_TYPE,
    predicate: {
      title: row.title,
      metadata: row.metadata,
      details: detailsOf(row),
      provenance: row.provenance,
      created_at: new Date(row.created_at).toISOString(),
      owner: row.owner,
    },
  };
}

/** The decision's statement: the receipt it answers (same subject and digest), the ask as given and the decision. */
export interface DecisionStatement {
  _type: typeof STATEMENT_TYPE;
  subject: Statement["subject"];
  predicateType: typeof DECISION_PREDICATE_TYPE;
  predicate: { ask: NonNullable<ArtifactRow["ask"]>; decision: NonNullable<ArtifactRow["decision"]>; owner: string };
}

/** The decision line of a receipt whose ask is settled, or null while it is open (or it has none). */
export function decisionStatementOf(row: ArtifactRow): DecisionStatement | null {
  if (!row.ask || !row.decision) return null;
  return {
    _type: STATEMENT_TYPE,
    subject: [{ name: subjectName(row.id), digest: { sha256: row.checksum.replace(/^sha256:/, "") } }],
    predicateType: DECISION_PREDICATE_TYPE,
    predicate: { ask: row.ask, decision: row.decision, owner: row.owner },
  };
}

export type RenderOutcome = { ok: true; body: string; checksum: string } | { ok: false; reason: string };

/**
 * Re-renders a receipt body from title, metadata and details with its schema's versioned
 * template: the same function the server rendered it with, so equal input gives equal bytes.
 */
export function rerender(predicate: Pick<ReceiptPredicate, "title" | "metadata" | "details">): RenderOutcome {
  const schema = predicate.metadata?.schema;
  if (typeof schema !== "string" || !isRegisteredSchema(schema)) return { ok: false, reason: "metadata names no registered schema" };
  try {
    const body = SCHEMA_REGISTRY[schema].render({
      title: predicate.title,
      metadata: predicate.metadata as never,
      ...(predicate.details !== null && { details: predicate.details }),
    });
    return { ok: true, body, checksum: checksumOf(body) };
  } catch {
    return { ok: false, reason: "metadata does not have the schema's shape" };
  }
}
