/**
 * Reads an OpenAPI 3.1 document for people: resolves `$ref`s, flattens a schema into
 * rows (nested objects and list items expanded with dotted names, so `outcome.status`
 * and its values appear), and makes an example value for any schema that carries none.
 */
export type Json = Record<string, unknown>;

export interface FieldRow {
  /** Dotted path, `[]` marking a list's items: `evidence[].url`. */
  name: string;
  depth: number;
  type: string;
  required: boolean;
  /** Limits and allowed values in words: "1–4,000 characters", "one of: measured, pending". */
  rules: string[];
  description: string;
}

const MAX_DEPTH = 4;

export function deref(doc: Json, schema: unknown): Json {
  let s = (schema as Json | undefined) ?? {};
  for (let hops = 0; typeof s.$ref === "string" && hops < 8; hops++) {
    const target = (s.$ref as string)
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], doc);
    s = { ...((target as Json | undefined) ?? {}), ...(s.description ? { description: s.description } : {}) };
  }
  return s;
}

/** The non-null branch of `anyOf`/`type: [x, "null"]`, with whether null is allowed. */
function nonNull(doc: Json, schema: unknown): { s: Json; nullable: boolean } {
  const s = deref(doc, schema);
  if (Array.isArray(s.anyOf)) {
    const branches = s.anyOf.map((b) => deref(doc, b));
    const real = branches.filter((b) => b.type !== "null");
    if (real.length === 1) return { s: { ...real[0], description: s.description ?? real[0]?.description }, nullable: real.length < branches.length };
  }
  if (Array.isArray(s.type) && s.type.includes("null")) {
    const rest = s.type.filter((t) => t !== "null");
    return { s: { ...s, type: rest.length === 1 ? rest[0] : rest }, nullable: true };
  }
  return { s, nullable: false };
}

function typeName(doc: Json, schema: unknown): string {
  const { s, nullable } = nonNull(doc, schema);
  let t: string;
  if (Array.isArray(s.enum)) t = "enum";
  else if (s.type === "array") t = `${typeName(doc, s.items)}[]`;
  else if (Array.isArray(s.anyOf)) t = s.anyOf.map((x) => typeName(doc, x)).join(" | ");
  else t = typeof s.type === "string" ? s.type : "object";
  return nullable ? `${t} | null` : t;
}

const n = (x: unknown) => Number(x).toLocaleString("en-US");

function rulesOf(doc: Json, schema: unknown): string[] {
  const { s } = nonNull(doc, schema);
  const rules: string[] = [];
  if (Array.isArray(s.enum)) rules.push(`one of: ${s.enum.map(String).join(", ")}`);
  if (s.minLength !== undefined || s.maxLength !== undefined) {
    rules.push(s.maxLength === undefined ? `at least ${n(s.minLength)} characters` : `${n(s.minLength ?? 0)}–${n(s.maxLength)} characters`);
  }
  if (s.maxItems !== undefined) rules.push(`at most ${n(s.maxItems)} items`);
  if (s.minimum !== undefined || s.maximum !== undefined) rules.push(`${n(s.minimum ?? "…")}–${n(s.maximum ?? "…")}`);
  if (typeof s.pattern === "string") rules.push(`matches ${s.pattern}`);
  if (typeof s.format === "string") rules.push(s.format);
  return rules;
}

export function fieldRows(doc: Json, schema: unknown, prefix = "", depth = 0): FieldRow[] {
  const { s } = nonNull(doc, schema);
  const props = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  return Object.entries(props).flatMap(([key, prop]) => {
    const name = `${prefix}${key}`;
    const { s: p } = nonNull(doc, prop);
    const row: FieldRow = {
      name,
      depth,
      type: typeName(doc, prop),
      required: required.has(key),
      rules: rulesOf(doc, prop),
      description: String(p.description ?? ""),
    };
    if (depth >= MAX_DEPTH) return [row];
    if (p.type === "object" || p.properties) return [row, ...fieldRows(doc, p, `${name}.`, depth + 1)];
    if (p.type === "array") {
      const item = nonNull(doc, p.items).s;
      if (item.properties) return [row, ...fieldRows(doc, item, `${name}[].`, depth + 1)];
    }
    return [row];
  });
}

/** The schema's own example, else one made from its shape (a quoted `e.g. "…"` in the description wins). */
export function exampleOf(doc: Json, schema: unknown, depth = 0): unknown {
  const { s } = nonNull(doc, schema);
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (depth > MAX_DEPTH) return null;
  const hinted = /e\.g\. "([^"]+)"/.exec(String(s.description ?? ""))?.[1];
  switch (s.type) {
    case "string":
      return hinted ?? (s.format === "date-time" ? "2026-12-01T09:00:00.000Z" : "string");
    case "integer":
    case "number":
      return typeof s.minimum === "number" ? s.minimum : 1;
    case "boolean":
      return false;
    case "array":
      return s.items ? [exampleOf(doc, s.items, depth + 1)] : [];
    default: {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const required = new Set((s.required as string[] | undefined) ?? Object.keys(props));
      return Object.fromEntries(
        Object.entries(props)
          .filter(([k]) => required.has(k))
          .map(([k, p]) => [k, exampleOf(doc, p, depth + 1)]),
      );
    }
  }
}
