import { z } from "zod";

/** One top-level field of an input, as a surface that spells fields itself (the CLI) needs it. */
export interface FieldInfo {
  name: string;
  /** `json` for objects, unions and anything else a flag cannot spell as one word. */
  kind: "string" | "number" | "boolean" | "list" | "json";
  /** The schema's own `.describe()` text, the same as OpenAPI, MCP and the JSON Schema show. */
  description: string;
  required: boolean;
  /** For enums: the values allowed. */
  choices?: string[];
}

type JsonSchema = {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: unknown;
  enum?: unknown[];
  description?: string;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/** Follows a local `#/$defs/X` reference (schemas with a component id are emitted as one), keeping the nearer description. */
function deref(schema: JsonSchema, defs: Record<string, JsonSchema>): JsonSchema {
  const name = schema.$ref?.split("/").pop();
  const target = name === undefined ? undefined : defs[name];
  return target ? { ...target, ...(schema.description !== undefined && { description: schema.description }) } : schema;
}

const cache = new WeakMap<z.ZodType, FieldInfo[]>();

function kindOf(schema: JsonSchema): FieldInfo["kind"] {
  if (Array.isArray(schema.enum)) return "string";
  switch (schema.type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "array":
      return schema.items && ["string", "number", "integer"].includes(String(schema.items.type)) ? "list" : "json";
    default:
      return "json";
  }
}

/**
 * The top-level fields of an object input, read from zod's public JSON Schema output
 * (`z.toJSONSchema`, input side), never from zod's internals.
 */
export function fieldsOf(schema: z.ZodType): FieldInfo[] {
  const known = cache.get(schema);
  if (known) return known;
  const generated = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const defs = generated.$defs ?? {};
  const json = deref(generated, defs);
  const required = new Set(json.required ?? []);
  const fields = Object.entries(json.properties ?? {}).map(([name, raw]): FieldInfo => {
    const prop = deref(raw, defs);
    return {
      name,
      kind: kindOf({ ...prop, ...(prop.items && { items: deref(prop.items, defs) }) }),
      description: prop.description ?? "",
      required: required.has(name),
      ...(Array.isArray(prop.enum) && { choices: prop.enum.map(String) }),
    };
  });
  cache.set(schema, fields);
  return fields;
}
