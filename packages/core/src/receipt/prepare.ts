import { checksumOf } from "../checksum.js";
import { SCHEMA_REGISTRY } from "./registry.js";
import { type ReceiptValidation, type ValidReceipt, validateReceiptInput } from "./validate.js";

export interface PreparedReceipt extends ValidReceipt {
  body: string;
  checksum: string;
}

/**
 * Validate, render and checksum without touching storage. The server and the CLI's
 * --dry-run both go through here, so they cannot disagree about bytes.
 */
export function renderValidReceipt(valid: ValidReceipt): PreparedReceipt {
  const body = SCHEMA_REGISTRY[valid.metadata.schema].render(valid);
  return { ...valid, body, checksum: checksumOf(body) };
}

export function prepareReceipt(raw: unknown): { ok: true; value: PreparedReceipt } | Extract<ReceiptValidation, { ok: false }> {
  const validation = validateReceiptInput(raw);
  return validation.ok ? { ok: true, value: renderValidReceipt(validation.value) } : validation;
}
