import type { z } from "zod";

/** One thing wrong with an input: a dotted path, a reason a person can act on, and the limit when one was exceeded. */
export interface Issue {
  field: string;
  reason: string;
  limit?: number;
}

export const ROOT_FIELD = "(input)";

function pathOf(path: readonly PropertyKey[]): string {
  return path.length === 0 ? ROOT_FIELD : path.map(String).join(".");
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

const article = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

/**
 * Turns zod's issues into ours: dotted path, a reason written for people, and the limit
 * when a maximum was exceeded. Never includes the submitted value.
 */
export function issuesFromZod(error: z.ZodError, input: unknown): Issue[] {
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
          issues.push(
            min <= 1
              ? { field, reason: "must not be empty" }
              : { field, reason: `must be at least ${min} characters`, limit: min },
          );
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
          zi.origin === "string"
            ? `is longer than ${max} characters`
            : zi.origin === "array"
              ? `has more than ${max} items`
              : `must be at most ${max}`;
        issues.push({ field, reason, limit: max });
        break;
      }
      case "invalid_value":
        issues.push({ field, reason: `must be one of: ${zi.values.map(String).join(", ")}` });
        break;
      case "unrecognized_keys":
        for (const key of zi.keys) issues.push({ field: pathOf([...zi.path, key]), reason: "is not a known field" });
        break;
      case "invalid_key": {
        // A record key (e.g. a span attribute name) broke its own rule; say so with the key's limit.
        const inner = zi.issues[0];
        if (inner?.code === "too_big") {
          issues.push({ field, reason: `is a key longer than ${Number(inner.maximum)} characters`, limit: Number(inner.maximum) });
        } else {
          issues.push({ field, reason: "is not an allowed key" });
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
export function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { ok: true; value: z.output<S> } | { ok: false; issues: Issue[] } {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: issuesFromZod(result.error, input) };
}
