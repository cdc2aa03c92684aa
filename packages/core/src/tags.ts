import { z } from "zod";
import { LIMITS } from "./limits.js";

export const Tag = z
  .string()
  .overwrite((s) => s.trim().toLowerCase())
  .min(1)
  .max(LIMITS.tag)
  .regex(/^[a-z0-9._:-]+$/, "may contain only a-z, 0-9, '.', '_', ':' and '-'")
  .describe("A routing hint, lowercased: a-z, 0-9, '.', '_', ':' or '-', at most 64 characters.");

export const Tags = z
  .array(Tag)
  .max(LIMITS.tags)
  .describe("Client-asserted routing hints, at most 20. Lowercased and de-duplicated by the server.");

/** Lowercased, de-duplicated, first occurrence wins; `required` tags are appended if absent. */
export function normalizeTags(tags: readonly string[], required: readonly string[] = []): string[] {
  return [...new Set([...tags, ...required])];
}
