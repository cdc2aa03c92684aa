import type { z } from "zod";
import { LIMITS } from "./limits.js";
import { knownFieldsAt, nearestField } from "./suggest.js";
import { storableCopy, UNSTORABLE_REASON } from "./text.js";

/** One thing wrong with an input: a dotted path, a reason a person can act on, and the limit when one was exceeded. */
export interface Issue {
  field: string;
  reason: string;
  limit?: number;
}

export const ROOT_FIELD = "(input)";

/** A key the caller chose (an unknown field's name) is their text: made storable and cut, so an issue can always be persisted. */
function segmentOf(key: PropertyKey): string {
  const s = storableCopy(String(key));
  if (s === "") return "(empty key)";
  return s.length > LIMITS.fieldPathSegment ? `${s.slice(0, LIMITS.fieldPathSegment)}…` : s;
}

export function pathOf(path: readonly PropertyKey[]): string {
  return path.length === 0 ? ROOT_FIELD : path.map(segmentOf).join(".");
}

/** The entry that stands for the paths past the limit. */
export const moreEntry = (n: number) => `…and ${n} more`;

/** How many paths an entry made by `moreEntry` stands for (0 for a real path). */
export function moreCount(field: string): number {
  const m = /^…and (\d+) more$/.exec(field);
  return m ? Number(m[1]) : 0;
}

const moreIssue = (n: number): Issue => ({ field: moreEntry(n), reason: "further issues; fix these first", limit: LIMITS.issuesReported });

/**
 * At most LIMITS.issuesReported field paths, then one entry saying how many more there
 * were, counting what earlier caps already folded into a `…and N more` entry.
 */
export function capFields(fields: readonly string[]): string[] {
  const real = fields.filter((f) => moreCount(f) === 0);
  const folded = fields.reduce((n, f) => n + moreCount(f), 0);
  const kept = real.slice(0, LIMITS.issuesReported);
  const more = real.length - kept.length + folded;
  return more > 0 ? [...kept, moreEntry(more)] : kept;
}

/** The same bound for issues: the first LIMITS.issuesReported, then one saying how many more. */
export function capIssues(issues: readonly Issue[]): Issue[] {
  const real = issues.filter((i) => moreCount(i.field) === 0);
  const folded = issues.reduce((n, i) => n + moreCount(i.field), 0);
  const kept = real.slice(0, LIMITS.issuesReported);
  const more = real.length - kept.length + folded;
  return more > 0 ? [...kept, moreIssue(more)] : kept;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** An issue that only says "not this type" (directly, or through every branch of a nested union). */
function isTypeMismatch(issue: z.core.$ZodIssue): boolean {
  if (issue.code === "invalid_type") return true;
  return issue.code === "invalid_union" && issue.errors.every((branch) => branch.every(isTypeMismatch));
}

const article = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

/**
 * Turns zod's issues into ours: dotted path, a reason written for people, and the limit
 * when a maximum was exceeded. Never includes the submitted value.
 */
export function issuesFromZod(error: z.ZodError, input: unknown, schema?: z.ZodType): Issue[] {
  const issues: Issue[] = [];
  for (const zi of error.issues) {
    const field = pathOf(zi.path);
    switch (zi.code) {
      case "invalid_type": {
        const missing = valueAt(input, zi.path) === undefined;
        issues.push({ field, reason: missing ? "is required" : `must be ${article(zi.expected)}` });
        break;
      }
      case "too_small": {
        const min = Number(zi.minimum);
        if (zi.origin === "string") {
          issues.push(min <= 1 ? { field, reason: "must not be empty" } : { field, reason: `must be at least ${min} characters`, limit: min });
        } else if (zi.origin === "array") {
          issues.push({ field, reason: `must have at least ${min} items`, limit: min });
        } else {
          issues.push({ field, reason: `must be at least ${min}`, limit: min });
        }
        break;
      }
      case "too_big": {
        const max = Number(zi.maximum);
        const reason =
          zi.origin === "string" ? `is longer than ${max} characters` : zi.origin === "array" ? `has more than ${max} items` : `must be at most ${max}`;
        issues.push({ field, reason, limit: max });
        break;
      }
      case "invalid_value":
        issues.push({ field, reason: `must be one of: ${zi.values.map(String).join(", ")}` });
        break;
      case "unrecognized_keys": {
        // Only as many as can be reported are named; 20k made-up keys cost a count, not 20k paths.
        const named = zi.keys.slice(0, LIMITS.issuesReported + 1);
        const known = schema ? knownFieldsAt(schema, zi.path) : [];
        for (const key of named) {
          // The suggestion is one of our own field names, never the caller's text.
          const near = nearestField(key, known);
          issues.push({ field: pathOf([...zi.path, key]), reason: near ? `is not a known field; did you mean ${near}?` : "is not a known field" });
        }
        if (zi.keys.length > named.length) issues.push(moreIssue(zi.keys.length - named.length));
        break;
      }
      case "invalid_key": {
        // A record key (e.g. a span attribute name) broke its own rule; say so with the key's limit.
        const inner = zi.issues[0];
        if (inner?.code === "too_big") {
          issues.push({ field, reason: `is a key longer than ${Number(inner.maximum)} characters`, limit: Number(inner.maximum) });
        } else if (inner?.message === UNSTORABLE_REASON) {
          issues.push({ field, reason: `is a key that ${UNSTORABLE_REASON}` });
        } else {
          issues.push({ field, reason: "is not an allowed key" });
        }
        break;
      }
      case "invalid_union": {
        // A value of the right type that broke that type's rule: report the rule, not the union.
        const relevant = zi.errors.filter((branch) => branch.length > 0 && !branch.every(isTypeMismatch));
        const only = relevant.length === 1 ? relevant[0] : undefined;
        if (only) {
          const nested = { issues: only.map((i) => ({ ...i, path: [...zi.path, ...i.path] })) } as unknown as z.ZodError;
          issues.push(...issuesFromZod(nested, input, schema));
        } else {
          issues.push({ field, reason: zi.message === "Invalid input" ? "has an invalid value" : zi.message });
        }
        break;
      }
      case "invalid_format":
        issues.push({ field, reason: zi.message.startsWith("Invalid") ? `has an invalid format (${zi.format})` : zi.message });
        break;
      default:
        issues.push({ field, reason: zi.message });
    }
  }
  return issues;
}

/** Parses with a zod schema and returns our issues instead of throwing. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): { ok: true; value: z.output<S> } | { ok: false; issues: Issue[] } {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: issuesFromZod(result.error, input, schema) };
}
