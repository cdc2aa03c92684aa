import { z } from "zod";
import { renderReceiptV1 } from "./render.js";
import { RECEIPT_SCHEMA_ID, ReceiptCreateInput } from "./schemas.js";

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
  return {
    $id: `cairn:${entry.id}`,
    title: entry.id,
    ...z.toJSONSchema(entry.createInput, { io: "input", target: "draft-2020-12" }),
  };
}
