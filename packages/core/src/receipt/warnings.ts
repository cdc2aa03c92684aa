import { measureDueAt } from "../inbox/rules.js";
import type { ReceiptMetadata } from "./schemas.js";

/** Something a reader of the receipt will trip over that is still no reason to refuse it. */
export interface ReceiptWarning {
  field: string;
  reason: string;
}

/**
 * Warnings on an accepted receipt. A past `measure_at` is allowed (back-filling a record
 * of work already done must work), but it is due the moment it is stored; no evidence is
 * allowed too, but the card will say "No evidence linked".
 */
export function receiptWarnings(metadata: ReceiptMetadata, now: Date): ReceiptWarning[] {
  const warnings: ReceiptWarning[] = [];
  const { outcome } = metadata;
  if (outcome.status === "pending" && outcome.measure_at !== undefined && measureDueAt(outcome.measure_at).getTime() <= now.getTime()) {
    warnings.push({ field: "outcome.measure_at", reason: "is already past: the outcome is due as soon as the receipt is stored" });
  }
  if (metadata.evidence.length === 0) {
    warnings.push({ field: "evidence", reason: 'is empty: the card will say "No evidence linked"' });
  }
  return warnings;
}
