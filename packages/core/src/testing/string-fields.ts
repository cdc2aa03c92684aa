import { z } from "zod";
import { OPERATIONS, type OperationName } from "../runtime/registry.js";

/** A record key in a path: the string goes into the key, not the value. */
export const KEY = Symbol("record key");
export type FieldPath = ReadonlyArray<string | number | typeof KEY>;

type Json = { [k: string]: unknown };
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Every place an operation's input takes a string, found from its published JSON Schema
 * (the same one OpenAPI and MCP show), so a field added to any input is walked too.
 * Arrays contribute index 0, records a key (`KEY`) and a value under the key `k`.
 * Enumerations are left out: they are refused as "must be one of", never stored as sent.
 */
export function stringFieldPaths(schema: z.ZodType): FieldPath[] {
  const root = z.toJSONSchema(schema, { io: "input" }) as Json;
  const defs = (root.$defs ?? {}) as Record<string, Json>;
  const out = new Map<string, FieldPath>();
  const walk = (node: unknown, path: FieldPath, depth: number) => {
    if (!isObject(node) || depth > 12) return;
    if (typeof node.$ref === "string") return walk(defs[node.$ref.replace("#/$defs/", "")], path, depth + 1);
    for (const key of ["anyOf", "oneOf", "allOf"] as const) {
      if (Array.isArray(node[key])) for (const option of node[key]) walk(option, path, depth + 1);
    }
    // A closed set (enum) is answered "must be one of", which names the field just as well; it is never stored as sent.
    if (node.type === "string" && node.enum === undefined && node.const === undefined) out.set(JSON.stringify(path.map(String)), path);
    if (isObject(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) walk(child, [...path, name], depth + 1);
    }
    if (isObject(node.propertyNames)) walk(node.propertyNames, [...path, KEY], depth + 1);
    if (isObject(node.additionalProperties)) walk(node.additionalProperties, [...path, "k"], depth + 1);
    if (isObject(node.items)) walk(node.items, [...path, 0], depth + 1);
  };
  walk(root, [], 0);
  return [...out.values()];
}

/** An input holding `value` at `path` and nothing else (other required fields are simply missing). */
export function inputWith(path: FieldPath, value: string): unknown {
  const build = (rest: FieldPath): unknown => {
    const [head, ...tail] = rest;
    if (head === undefined) return value;
    if (head === KEY) return { [value]: "x" };
    if (typeof head === "number") return [build(tail)];
    return { [head]: build(tail) };
  };
  return build(path);
}

/** The dotted field an issue names for that path (a key is reported by the key it was given, made storable). */
export function fieldOf(path: FieldPath, keyAs: string): string {
  return path.map((p) => (p === KEY ? keyAs : String(p))).join(".");
}

/** Every operation with its string fields: what a hostile client can put text into. */
export function operationStringFields(): Array<{ name: OperationName; paths: FieldPath[] }> {
  return (Object.keys(OPERATIONS) as OperationName[]).map((name) => ({ name, paths: stringFieldPaths(OPERATIONS[name].input) }));
}
