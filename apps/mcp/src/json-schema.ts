import { z } from "zod";

type Json = Record<string, unknown>;

function inlineRefs(node: unknown, defs: Json, depth = 0): unknown {
  if (depth > 64) throw new Error("schema nesting too deep (cyclic $ref?)");
  if (Array.isArray(node)) return node.map((n) => inlineRefs(n, defs, depth + 1));
  if (node === null || typeof node !== "object") return node;
  const { $ref, ...rest } = node as Json;
  const out: Json = {};
  if (typeof $ref === "string") {
    const target = defs[$ref.replace(/^#\/\$defs\//, "")];
    if (!target) throw new Error(`unresolved $ref ${$ref}`);
    Object.assign(out, inlineRefs(target, defs, depth + 1));
  }
  for (const [key, value] of Object.entries(rest)) out[key] = inlineRefs(value, defs, depth + 1);
  return out;
}

/**
 * A core zod schema as an MCP tool schema: a self-contained JSON Schema object. Schemas
 * that carry an OpenAPI component id come out of zod as `$ref`s into `$defs`; they are
 * inlined so every property (and its description) sits where a model reads it. `$schema`
 * is dropped: MCP's default dialect is 2020-12, and the keywords used here mean the same
 * in draft-07, which is what the SDK's client validator (Ajv) speaks.
 */
export function toolJsonSchema(schema: z.ZodType, io: "input" | "output"): { type: "object"; [key: string]: unknown } {
  const generated = z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }) as Json;
  const { $schema: _dialect, $defs = {}, ...root } = generated as Json & { $defs?: Json };
  const inlined = inlineRefs(root, $defs) as Json;
  if (inlined.type !== "object") throw new Error("an MCP tool schema must describe an object");
  return inlined as { type: "object" };
}
