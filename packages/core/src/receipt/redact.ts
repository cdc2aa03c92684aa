import { findSecrets, redactText, type ScanSettings, type SecretFinding, type TextField } from "../secrets/scan.js";
import { normalizeTags } from "../tags.js";
import { deriveTitle, type ValidReceipt } from "./validate.js";

/** A secret replaced on the way in: which field, which rule. Never the secret. */
export interface Redaction {
  field: string;
  rule: string;
}

type Mapper = (field: string, value: string) => string;

/**
 * Rebuilds a receipt with every persisted free-text string passed through `fn`, by its
 * dotted path. The one list of what "every persisted string" means: title, each answer,
 * evidence labels and urls, remaining items and owners, details, tags, model and the ask's labels.
 */
export function mapReceiptStrings(v: ValidReceipt, fn: Mapper): ValidReceipt {
  const m = v.metadata;
  const opt = (field: string, value: string | undefined) => (value === undefined ? undefined : fn(field, value));
  const evidenceNote = opt("evidence_note", m.evidence_note);
  const summary = opt("outcome.summary", m.outcome.summary);
  const details = opt("details", v.details);
  const model = opt("model", v.model);
  return {
    ...v,
    title: fn("title", v.title),
    metadata: {
      ...m,
      changed: fn("changed", m.changed),
      affected: fn("affected", m.affected),
      before: fn("before", m.before),
      after: fn("after", m.after),
      evidence: m.evidence.map((e, i) => ({ label: fn(`evidence.${i}.label`, e.label), url: fn(`evidence.${i}.url`, e.url) })),
      ...(evidenceNote !== undefined && { evidence_note: evidenceNote }),
      outcome: { ...m.outcome, ...(summary !== undefined && { summary }) },
      human_action: fn("human_action", m.human_action),
      remaining: m.remaining.map((r, i) => ({ item: fn(`remaining.${i}.item`, r.item), owner: fn(`remaining.${i}.owner`, r.owner) })),
      learned: fn("learned", m.learned),
    },
    tags: v.tags.map((t, i) => fn(`tags.${i}`, t)),
    ...(details !== undefined && { details }),
    ...(model !== undefined && { model }),
    ...(v.ask !== undefined && { ask: { ...v.ask, options: v.ask.options.map((o, i) => ({ id: o.id, label: fn(`ask.options.${i}.label`, o.label) })) } }),
  };
}

/** Every persisted string as the scanner reads it: tags as sent, since lowercasing would hide an `AKIA…` id. */
function receiptTextFields(v: ValidReceipt): TextField[] {
  const fields: TextField[] = [];
  mapReceiptStrings(v, (field, value) => {
    const sent = field.startsWith("tags.") ? v.sentTags?.[Number(field.slice(5))] : undefined;
    fields.push({ field, value: sent ?? value });
    return value;
  });
  return fields;
}

export interface RedactionResult {
  receipt: ValidReceipt;
  redactions: Redaction[];
  findings: SecretFinding[];
}

/**
 * Finds secrets in every persisted string and replaces each by `[REDACTED:<rule>]`, so
 * body, metadata and search text agree. A tag cannot hold brackets, so a tag carrying a
 * secret becomes `redacted:<rule>`. Pure apart from the scan: the CLI's dry-run uses it too.
 */
export async function redactReceipt(valid: ValidReceipt, settings: ScanSettings): Promise<RedactionResult> {
  const findings = await findSecrets(receiptTextFields(valid), settings);
  // The as-sent spelling of the tags is for the scanner only; it never travels further.
  const { sentTags: _, ...plain } = valid;
  if (findings.length === 0) return { receipt: plain, redactions: [], findings };
  const byField = new Map<string, SecretFinding[]>();
  for (const f of findings) {
    const list = byField.get(f.field);
    if (list) list.push(f);
    else byField.set(f.field, [f]);
  }

  const redacted = mapReceiptStrings(plain, (field, value) => {
    const hits = byField.get(field);
    if (!hits) return value;
    return field.startsWith("tags.") ? `redacted:${hits[0]?.rule}` : redactText(value, hits);
  });
  redacted.tags = normalizeTags(redacted.tags);

  const redactions = dedupe(findings.map(({ field, rule }) => ({ field, rule })));
  // A derived title may hold a cut-off piece of a secret the scanner cannot recognise: derive it again.
  if (valid.title === deriveTitle(valid.metadata.changed) && byField.has("changed")) {
    const title = deriveTitle(redacted.metadata.changed);
    if (title !== valid.title) {
      redacted.title = title;
      for (const f of byField.get("changed") ?? []) redactions.push({ field: "title", rule: f.rule });
    }
  }
  return { receipt: redacted, redactions: dedupe(redactions), findings };
}

function dedupe(list: Redaction[]): Redaction[] {
  const seen = new Set<string>();
  return list.filter((r) => {
    const key = `${r.field}\u0000${r.rule}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
