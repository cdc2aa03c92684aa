import { checksumOf } from "../checksum.js";
import { DEFAULT_SCAN_SETTINGS, type ScanSettings } from "../secrets/scan.js";
import { type Redaction, redactReceipt } from "./redact.js";
import { SCHEMA_REGISTRY } from "./registry.js";
import { type ReceiptValidation, type ValidReceipt, validateReceiptInput } from "./validate.js";

export interface PreparedReceipt extends ValidReceipt {
  body: string;
  checksum: string;
}

/** The artifact columns a receipt is stored with; the insert and the CLI's --dry-run both show exactly these. */
export function storedReceiptFields(prepared: PreparedReceipt) {
  const { title, body, checksum, tags, metadata } = prepared;
  return { title, share_type: "markdown" as const, body, checksum, tags, metadata };
}

/**
 * Validate, render and checksum without touching storage. The server and the CLI's
 * --dry-run both go through here, so they cannot disagree about bytes.
 */
export function renderValidReceipt(valid: ValidReceipt): PreparedReceipt {
  const body = SCHEMA_REGISTRY[valid.metadata.schema].render(valid);
  return { ...valid, body, checksum: checksumOf(body) };
}

/** What `q` finds the receipt by (docs/adr/0074-search-vector-from-the-answers.md): its schema's own choice of its words, not the rendered body. */
export function receiptSearchText(valid: ValidReceipt): string {
  return SCHEMA_REGISTRY[valid.metadata.schema].searchText(valid);
}

/** The static gates and the render, with no secret scan (synchronous). Prefer prepareRedactedReceipt for a preview. */
export function prepareReceipt(raw: unknown): { ok: true; value: PreparedReceipt } | Extract<ReceiptValidation, { ok: false }> {
  const validation = validateReceiptInput(raw);
  return validation.ok ? { ok: true, value: renderValidReceipt(validation.value) } : validation;
}

/**
 * What the server would store under a `secrets: redact` policy (the default): static
 * gates, secret redaction, render and checksum — no storage, no owner lookups. The CLI's
 * --dry-run uses it so its bytes match the server's for an owner with the default policy.
 */
export async function prepareRedactedReceipt(
  raw: unknown,
  settings: ScanSettings = DEFAULT_SCAN_SETTINGS,
): Promise<{ ok: true; value: PreparedReceipt; redactions: Redaction[] } | Extract<ReceiptValidation, { ok: false }>> {
  const validation = validateReceiptInput(raw);
  if (!validation.ok) return validation;
  const { receipt, redactions } = await redactReceipt(validation.value, settings);
  return { ok: true, value: renderValidReceipt(receipt), redactions };
}
