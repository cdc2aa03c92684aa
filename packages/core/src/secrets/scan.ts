import { ENTROPY_RULE, findHighEntropyTokens } from "./entropy.js";
import { scanWithSecretlint } from "./secretlint.js";

/** The owner's scanner settings (from their policy). */
export interface ScanSettings {
  /** Also flag generic high-entropy strings (policy `entropy_detection`). */
  entropy: boolean;
}

export const DEFAULT_SCAN_SETTINGS: ScanSettings = { entropy: false };

export interface TextField {
  /** Dotted path, e.g. `evidence.0.url`. */
  field: string;
  value: string;
}

/** A secret in one field. `value` is the secret's text; it never leaves core. */
export interface SecretFinding {
  field: string;
  rule: string;
  value: string;
}

/** Fields are scanned as one text (one secretlint pass); this separator matches no rule's character class. */
const SEPARATOR = "\n\u0000\n";

/**
 * Every secret in a set of fields: secretlint's recommended preset, plus the entropy
 * detector when the owner turned it on. A secret is attributed to each field it occurs in.
 */
export async function findSecrets(fields: readonly TextField[], settings: ScanSettings): Promise<SecretFinding[]> {
  const findings: SecretFinding[] = [];
  const seen = new Set<string>();
  const add = (field: string, rule: string, value: string) => {
    const key = `${field}\u0000${rule}\u0000${value}`;
    if (value.length === 0 || seen.has(key)) return;
    seen.add(key);
    findings.push({ field, rule, value });
  };
  const combined = fields.map((f) => f.value).join(SEPARATOR);
  for (const hit of await scanWithSecretlint(combined)) {
    for (const piece of hit.value.split(SEPARATOR)) {
      for (const f of fields) if (piece.length > 0 && f.value.includes(piece)) add(f.field, hit.rule, piece);
    }
  }
  if (settings.entropy) {
    for (const f of fields) for (const token of findHighEntropyTokens(f.value)) add(f.field, ENTROPY_RULE, token);
  }
  return findings;
}

export const redactionMarker = (rule: string) => `[REDACTED:${rule}]`;

/**
 * Replaces every occurrence of each secret by `[REDACTED:<rule>]`. Occurrences are merged
 * into spans first, so overlapping findings never leave a fragment of a secret behind.
 */
export function redactText(text: string, findings: readonly Pick<SecretFinding, "rule" | "value">[]): string {
  const spans: Array<{ start: number; end: number; rule: string }> = [];
  for (const { rule, value } of findings) {
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
      spans.push({ start: at, end: at + value.length, rule });
    }
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = "";
  let cursor = 0;
  let current: { start: number; end: number; rule: string } | undefined;
  const flush = () => {
    if (!current) return;
    out += text.slice(cursor, current.start) + redactionMarker(current.rule);
    cursor = current.end;
  };
  for (const span of spans) {
    if (current && span.start < current.end) {
      current.end = Math.max(current.end, span.end);
      continue;
    }
    flush();
    current = { ...span };
  }
  flush();
  return out + text.slice(cursor);
}

/** Whether the scanner, with these settings, flags the text (drop receipts withhold such titles). */
export async function containsSecret(text: string, settings: ScanSettings): Promise<boolean> {
  return (await findSecrets([{ field: "text", value: text }], settings)).length > 0;
}
