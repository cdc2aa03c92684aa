import { validationFailed } from "../errors.js";
import { DEFAULT_SCAN_SETTINGS, findSecrets, redactionMarker, redactText, type SecretFinding, type TextField } from "./scan.js";

/** The part of an owner's policy the scanner follows. */
export interface SecretRules {
  secrets: "redact" | "block";
  entropy_detection: boolean;
}

/** What verbs without an owner (token names) follow: redact, generic entropy off (ADR 0011). */
export const DEFAULT_SECRET_RULES: SecretRules = { secrets: "redact", entropy_detection: DEFAULT_SCAN_SETTINGS.entropy };

/** A persisted string of a verb: its dotted path, its text as it will be stored, and how a secret is replaced in it. */
export interface ScannedString extends TextField {
  /** `text` (the default): the secret becomes `[REDACTED:<rule>]` in place. `tag`: the whole tag becomes `redacted:<rule>`. `key`: an attribute name, replaced whole. */
  kind?: "text" | "tag" | "key";
}

export interface SecretScanResult {
  /** The strings as they are to be stored, in the order given. */
  values: string[];
  /** Which field, which rule; never the secret. */
  redactions: Array<{ field: string; rule: string }>;
}

/**
 * The one secrets step for every verb other than receipt_create (which has its gates):
 * scans every persisted string as it will be stored, then under `redact` replaces each
 * secret and under `block` refuses with 422 naming each field. Bounded like every scan
 * (LIMITS.scanChars, LIMITS.secretHits).
 */
export async function applySecretRules(strings: readonly ScannedString[], rules: SecretRules): Promise<SecretScanResult> {
  const findings = await findSecrets(strings, { entropy: rules.entropy_detection });
  if (findings.length === 0) return { values: strings.map((s) => s.value), redactions: [] };
  const byField = new Map<string, SecretFinding[]>();
  for (const f of findings) {
    const list = byField.get(f.field);
    if (list) list.push(f);
    else byField.set(f.field, [f]);
  }
  if (rules.secrets === "block") {
    throw validationFailed(
      [...byField].map(([field, hits]) => ({
        field,
        reason: `contains a secret (${[...new Set(hits.map((h) => h.rule))].join(", ")}); the owner's policy blocks secrets`,
      })),
    );
  }
  const redactions: SecretScanResult["redactions"] = [];
  const values = strings.map((s) => {
    const hits = byField.get(s.field);
    if (!hits) return s.value;
    for (const rule of new Set(hits.map((h) => h.rule))) redactions.push({ field: s.field, rule });
    const rule = hits[0]?.rule ?? "secret";
    if (s.kind === "tag") return `redacted:${rule}`;
    if (s.kind === "key") return redactionMarker(rule);
    return redactText(s.value, hits);
  });
  return { values, redactions };
}
