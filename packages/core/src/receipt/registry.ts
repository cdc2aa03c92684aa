import { z } from "zod";
import { defineApiTag } from "../operations/api-tags.js";
import { renderReceiptV1 } from "./render.js";
import { RECEIPT_SCHEMA_ID, ReceiptCreateInput } from "./schemas.js";
import { receiptSearchTextV1 } from "./search-text.js";

/** The published schemas' group in the API documentation. */
export const SCHEMA_TAG = defineApiTag(
  "Schemas",
  "The published JSON Schemas (draft 2020-12) of what Cairn accepts, to validate a receipt before sending it. No token needed.",
);

/**
 * The closed registry of metadata schemas. A second schema is a new entry plus a verb,
 * never a migration; an unknown name is rejected at the first gate.
 */
export const SCHEMA_REGISTRY = {
  [RECEIPT_SCHEMA_ID]: {
    id: RECEIPT_SCHEMA_ID,
    description: "A structured receipt: the nine answers an agent or script leaves when it finishes work.",
    createInput: ReceiptCreateInput,
    render: renderReceiptV1,
    searchText: receiptSearchTextV1,
  },
} as const;

export type RegisteredSchemaId = keyof typeof SCHEMA_REGISTRY;

export const registeredSchemaIds = (): RegisteredSchemaId[] => Object.keys(SCHEMA_REGISTRY) as RegisteredSchemaId[];

export function isRegisteredSchema(id: string): id is RegisteredSchemaId {
  return Object.hasOwn(SCHEMA_REGISTRY, id);
}

/** The published JSON Schema (draft 2020-12) of a schema's create input, generated from zod. */
export function jsonSchemaOf(id: RegisteredSchemaId): Record<string, unknown> {
  const entry = SCHEMA_REGISTRY[id];
  const generated = z.toJSONSchema(entry.createInput, { io: "input", target: "draft-2020-12" }) as Record<string, unknown>;
  // The input carries a component id (for OpenAPI), so zod emits a root $ref; publish the object itself.
  const { $ref, $defs = {}, ...head } = generated as { $ref?: string; $defs?: Record<string, unknown> };
  const rootName = $ref?.split("/").pop();
  const { [rootName ?? ""]: root = {}, ...otherDefs } = $defs;
  return {
    ...head,
    $id: `cairn:${entry.id}`,
    title: entry.id,
    ...(root as Record<string, unknown>),
    ...(Object.keys(otherDefs).length > 0 && { $defs: otherDefs }),
  };
}
