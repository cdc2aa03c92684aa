import { CairnError } from "../errors.js";
import { LIMITS } from "../limits.js";
import { ROOT_FIELD } from "../validation.js";
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

/** Fields share a window joined by this; stored text cannot hold U+0000, so it never occurs in a field. */
const SEPARATOR = "\n\u0000\n";
/** One secretlint pass reads at most this much, so its pairwise de-duplication stays small. */
export const SCAN_WINDOW = 16_384;
/** A field longer than a window is read in windows overlapping by this, so no secret up to 4 KiB (an RSA key) is cut. */
export const SCAN_OVERLAP = 4_096;

/** A piece of one field placed in a window: where it sits in the window and in its field. */
interface Piece {
  field: number;
  inWindow: number;
  length: number;
}

/** Packs fields into windows of at most SCAN_WINDOW characters: linear in the text, every window scanned once. */
function* windowsOf(fields: readonly TextField[]): Generator<{ text: string; pieces: Piece[] }> {
  let parts: string[] = [];
  let pieces: Piece[] = [];
  let size = 0;
  const flush = function* () {
    if (pieces.length > 0) yield { text: parts.join(SEPARATOR), pieces };
    parts = [];
    pieces = [];
    size = 0;
  };
  for (let field = 0; field < fields.length; field++) {
    const value = fields[field]?.value ?? "";
    for (let start = 0; start < value.length; start += SCAN_WINDOW - SCAN_OVERLAP) {
      const piece = value.slice(start, start + SCAN_WINDOW);
      if (size > 0 && size + SEPARATOR.length + piece.length > SCAN_WINDOW) yield* flush();
      if (size > 0) size += SEPARATOR.length;
      pieces.push({ field, inWindow: size, length: piece.length });
      parts.push(piece);
      size += piece.length;
      if (start + SCAN_WINDOW >= value.length) break;
    }
  }
  yield* flush();
}

/** The field a window position belongs to (binary search over the window's pieces). */
function pieceAt(pieces: readonly Piece[], at: number): Piece | undefined {
  let lo = 0;
  let hi = pieces.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((pieces[mid]?.inWindow ?? 0) <= at) lo = mid;
    else hi = mid - 1;
  }
  return pieces[lo];
}

const scanLimitError = (reason: string, limit: number) =>
  new CairnError("validation_failed", `${ROOT_FIELD}: ${reason}.`, { issues: [{ field: ROOT_FIELD, reason, limit }] });

/**
 * Every secret in a set of fields: secretlint's recommended preset, plus the entropy
 * detector when the owner turned it on. A secret is attributed to each field it occurs in.
 * Work is linear in the text and bounded: at most LIMITS.scanChars characters are read
 * (more is refused, 422), and scanning stops past LIMITS.secretHits occurrences (refused too).
 */
export async function findSecrets(fields: readonly TextField[], settings: ScanSettings): Promise<SecretFinding[]> {
  const total = fields.reduce((n, f) => n + f.value.length, 0);
  if (total > LIMITS.scanChars) {
    throw scanLimitError(`has more text than the secret scanner reads per request (${LIMITS.scanChars} characters)`, LIMITS.scanChars);
  }
  const tooMany = () => scanLimitError(`contains more than ${LIMITS.secretHits} secrets; the scanner stops there`, LIMITS.secretHits);
  const occurrences = new Set<string>();
  const found = new Map<string, { rule: string; value: string }>();
  /** `at` is the window position, or -1 for a detector that reports tokens, not places. */
  const note = (field: number, at: number, rule: string, value: string) => {
    occurrences.add(at === -1 ? `${field}:${rule}:${value}` : `${field}:${at}:${rule}`);
    if (occurrences.size > LIMITS.secretHits) throw tooMany();
    found.set(`${rule}\u0000${value}`, { rule, value });
  };
  for (const { text, pieces } of windowsOf(fields)) {
    for (const hit of await scanWithSecretlint(text)) {
      let at = hit.at;
      for (const part of hit.value.split(SEPARATOR)) {
        const piece = pieceAt(pieces, at);
        if (piece && part.length > 0) note(piece.field, at, hit.rule, part);
        at += part.length + SEPARATOR.length;
      }
    }
  }
  if (settings.entropy) {
    fields.forEach((f, i) => {
      for (const token of findHighEntropyTokens(f.value)) note(i, -1, ENTROPY_RULE, token);
    });
  }
  // At most LIMITS.secretHits distinct secrets, each looked for once in every field.
  const findings: SecretFinding[] = [];
  for (const { rule, value } of found.values()) {
    for (const f of fields) if (f.value.includes(value)) findings.push({ field: f.field, rule, value });
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
