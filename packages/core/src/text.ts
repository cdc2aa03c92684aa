import { z } from "zod";

/**
 * Canonical text: Unicode NFC and LF line endings, trimmed. Two submissions that differ
 * only in encoding details must render the same bytes and checksum.
 */
export function canonicalText(value: string): string {
  return value.normalize("NFC").replace(/\r\n?/g, "\n").trim();
}

/** A required, trimmed, non-empty text with a maximum length. */
export function requiredText(max: number, description: string) {
  return z.string().overwrite(canonicalText).min(1).max(max).describe(description);
}

/** Like requiredText, but may be omitted. An empty string after trimming is still rejected. */
export function optionalText(max: number, description: string) {
  return requiredText(max, description).optional();
}

/** A one-line title: canonical text with every run of whitespace folded to one space. */
export function titleText(max: number, description: string) {
  return z
    .string()
    .overwrite((s) => canonicalText(s).replace(/\s+/g, " "))
    .min(1)
    .max(max)
    .describe(description);
}
