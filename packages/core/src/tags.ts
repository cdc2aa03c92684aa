import { z } from "zod";
import { LIMITS } from "./limits.js";
import { storableString } from "./text.js";

/**
 * Tags keep their case through validation: the secret scanner reads them as sent (an
 * `AKIA…` id is only recognisable in capitals), and `normalizeTags` lowercases after it.
 */
export const Tag = storableString()
  .overwrite((s) => s.trim())
  .min(1)
  .max(LIMITS.tag)
  .regex(/^[A-Za-z0-9._:-]+$/, "may contain only a-z, 0-9, '.', '_', ':' and '-'")
  .describe("A routing hint, lowercased: a-z, 0-9, '.', '_', ':' or '-', at most 64 characters.");

export const Tags = z.array(Tag).max(LIMITS.tags).describe("Client-asserted routing hints, at most 20. Lowercased and de-duplicated by the server.");

/** Lowercased, de-duplicated, first occurrence wins; `required` tags are appended if absent. */
export function normalizeTags(tags: readonly string[], required: readonly string[] = []): string[] {
  return [...new Set([...tags, ...required].map((t) => t.toLowerCase()))];
}
