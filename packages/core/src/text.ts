import { z } from "zod";

/**
 * The one place that decides what text Cairn can store. Every string an input schema
 * accepts is built from `storableString()` (or a helper below built on it), so a new
 * field cannot forget the rule; a test walks every operation's input to prove it.
 */

/** What the `invalid` issue says for text the database cannot hold. */
export const UNSTORABLE_REASON = "contains a character that cannot be stored";

/**
 * Postgres refuses U+0000 in `text` and `\u0000` in `json`/`jsonb`, and lone UTF-16
 * surrogates cannot be encoded as UTF-8 at all. Every other code point is storable.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const NUL = String.fromCharCode(0);

export function isStorable(value: string): boolean {
  return !value.includes(NUL) && !LONE_SURROGATE.test(value);
}

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/** Replaces what cannot be stored by U+FFFD, for text we persist about a refusal (field paths). */
export function storableCopy(value: string): string {
  // Nearly every string is storable as it is: no copy, and no regular expression built per call.
  if (isStorable(value)) return value;
  return value.replaceAll(NUL, "\uFFFD").replace(LONE_SURROGATES, "\uFFFD");
}

/**
 * The first `max - 1` UTF-16 units of `value` and an ellipsis: never cut inside a
 * surrogate pair, which would leave a lone half the database refuses.
 */
export function cutWithEllipsis(value: string, max: number): string {
  let end = max - 1;
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${value.slice(0, end)}…`;
}

/**
 * Characters a reader cannot see: white space, format characters (zero-width space and
 * joiners, bidi marks, BOM, tag characters), controls, combining marks on their own,
 * Hangul fillers and the braille blank. A required text made only of these is empty.
 */
const INVISIBLE_ONLY = /^[\p{White_Space}\p{Cf}\p{Cc}\p{M}\u115F\u1160\u3164\uFFA0\u2800]*$/u;

export function isInvisible(value: string): boolean {
  return INVISIBLE_ONLY.test(value);
}

/**
 * Canonical text: Unicode NFC and LF line endings, trimmed. Two submissions that differ
 * only in encoding details must render the same bytes and checksum.
 */
export function canonicalText(value: string): string {
  return value.normalize("NFC").replace(/\r\n?/g, "\n").trim();
}

/**
 * A string the database can store. Checked first and aborting, so a NUL is reported as
 * exactly this issue (normalising text with a lone surrogate would hide it otherwise).
 */
export function storableString() {
  return z.string().check(z.refine(isStorable, { message: UNSTORABLE_REASON, abort: true }));
}

/** Any non-empty identifier-like value (ids, cursors, tokens): storable, 1..max code units, as given. */
export function storableId(max: number, description: string) {
  return storableString().min(1).max(max).describe(description);
}

const notInvisible = z.refine<string>((s) => s.length === 0 || !isInvisible(s), { message: "must not be empty" });

/** A required, trimmed, non-empty text with a maximum length. Invisible-only text counts as empty. */
export function requiredText(max: number, description: string) {
  return storableString().overwrite(canonicalText).min(1).check(notInvisible).max(max).describe(description);
}

/** Like requiredText, but may be omitted. An empty string after trimming is still rejected. */
export function optionalText(max: number, description: string) {
  return requiredText(max, description).optional();
}

/** A one-line title: canonical text with every run of whitespace folded to one space. */
export function titleText(max: number, description: string) {
  return storableString()
    .overwrite((s) => canonicalText(s).replace(/\s+/g, " "))
    .min(1)
    .check(notInvisible)
    .max(max)
    .describe(description);
}

/** An optional filter or query text (search `q`): trimmed, storable, may be empty. */
export function queryText(max: number, description: string) {
  return storableString()
    .overwrite((s) => s.trim())
    .max(max)
    .describe(description);
}
