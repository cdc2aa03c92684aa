import type { z } from "zod";

/**
 * "did you mean …?" for an unknown field: the known field names where it was sent, and
 * the nearest of them. Every surface validates through core's `parseWith`, so REST, MCP,
 * the CLI (and its `--dry-run`) suggest the same name.
 */

/** Farther than this, a name is not a typo of another (human_actoin → human_action is 1). */
const SUGGESTION_DISTANCE = 2;

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  options?: readonly z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
};

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schemas a value at `path` may be checked by (several through a union). Bounded: schemas are ours and finite. */
function schemasAt(schema: z.ZodType, path: readonly PropertyKey[], depth = 0): z.ZodType[] {
  if (depth > 64) return [];
  const def = defOf(schema);
  const inner = def.innerType ?? (def.type === "pipe" ? def.in : undefined) ?? (def.type === "lazy" ? def.getter?.() : undefined);
  if (inner) return schemasAt(inner, path, depth + 1);
  if (def.type === "union" && def.options) return def.options.flatMap((o) => schemasAt(o, path, depth + 1));
  if (def.type === "intersection" && def.left && def.right) {
    return [...schemasAt(def.left, path, depth + 1), ...schemasAt(def.right, path, depth + 1)];
  }
  if (path.length === 0) return [schema];
  const [head, ...rest] = path;
  if (def.type === "object" && def.shape && typeof head === "string" && Object.hasOwn(def.shape, head)) {
    return schemasAt(def.shape[head] as z.ZodType, rest, depth + 1);
  }
  if (def.type === "array" && def.element) return schemasAt(def.element, rest, depth + 1);
  if (def.type === "record" && def.valueType) return schemasAt(def.valueType, rest, depth + 1);
  return [];
}

/** The field names an object at `path` of `schema` knows, in schema order. */
export function knownFieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const names = new Set<string>();
  for (const s of schemasAt(schema, path)) {
    const def = defOf(s);
    if (def.type === "object" && def.shape) for (const key of Object.keys(def.shape)) names.add(key);
  }
  return [...names];
}

/** Edit distance counting a swap of two neighbours as one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const up = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The known name nearest to `unknown` when it is within SUGGESTION_DISTANCE edits (and
 * the name is long enough that two edits do not make it another word); the first in
 * schema order wins a tie. Case is ignored, so `Human_Action` finds `human_action`.
 */
export function nearestField(unknown: string, known: readonly string[]): string | undefined {
  if (unknown.length > 64) return undefined;
  const wanted = unknown.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(wanted, name.toLowerCase());
    if (distance > SUGGESTION_DISTANCE || distance >= Math.min(wanted.length, name.length)) continue;
    if (!best || distance < best.distance) best = { name, distance };
  }
  return best?.name;
}
