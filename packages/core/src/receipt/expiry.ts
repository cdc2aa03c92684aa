import { expiryOf } from "../artifact/internal.js";
import { LAST_INSTANT, readableInstant } from "../dates.js";
import { dueAtOf } from "../inbox/rules.js";
import type { ReceiptMetadata } from "./schemas.js";
import type { ReceiptWarning } from "./warnings.js";

/** How long a receipt is kept after its pending outcome falls due, so the follow-up can still link it (SPEC §20). */
const KEEP_AFTER_MEASURE_DAYS = 7;
const DAY_MS = 86_400_000;

const readable = (d: Date) => readableInstant(d.toISOString());

/**
 * When a new receipt expires. The owner's TTL, unless its outcome is pending and falls due
 * later: then 7 days after `measure_at`, so the sweeper keeps it until `receipt.measure_due`
 * has fired and the follow-up can link it — said in a warning. An explicit `expires_in`
 * wins (warned about when it ends the receipt before its outcome falls due).
 */
export function receiptExpiry(
  now: Date,
  ttlDays: number,
  expiresIn: number | undefined,
  metadata: ReceiptMetadata,
): { expiresAt: Date; warning: ReceiptWarning | null } {
  const expiresAt = expiryOf(now, ttlDays, expiresIn);
  const due = metadata.outcome.status === "pending" ? dueAtOf(metadata) : null;
  if (due === null || due.getTime() < expiresAt.getTime()) return { expiresAt, warning: null };
  if (expiresIn !== undefined) {
    return {
      expiresAt,
      warning: {
        field: "outcome.measure_at",
        reason: `falls due after the receipt expires (${readable(expiresAt)}, as expires_in asked): it will be gone before its outcome can be measured`,
      },
    };
  }
  // An outcome due in the last week of year 9999 is kept to its end, not into year 10000 (no store takes that).
  const kept = new Date(Math.min(due.getTime() + KEEP_AFTER_MEASURE_DAYS * DAY_MS, LAST_INSTANT));
  return {
    expiresAt: kept,
    warning: {
      field: "outcome.measure_at",
      reason: `falls due after the default expiry, so the receipt is kept until ${readable(kept)} (${KEEP_AFTER_MEASURE_DAYS} days after it falls due)`,
    },
  };
}
