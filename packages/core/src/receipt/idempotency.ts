import { createHash } from "node:crypto";
import type { CreatedArtifact } from "../artifact/schemas.js";
import { CairnError, type CairnErrorBody, type Issue } from "../errors.js";
import { stableJson } from "../json.js";
import type { Sql } from "../store/port.js";
import type { Rejection } from "./validate.js";

/** Keys are kept this long, per user; an older key is free to be used again. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;
const IDEMPOTENCY_FIELD = "idempotency_key";

export { IdempotencyKey } from "../operations/headers.js";

/** What a key remembers: the first response, replayed byte for byte. */
export type StoredOutcome = { kind: "created"; value: CreatedArtifact } | { kind: "rejected"; error: CairnErrorBody };

export interface IdempotencyClaim {
  userId: string;
  key: string;
  fingerprint: string;
}

/** The advisory lock every write under a key takes first: the receipt write and a refusal's drop. */
export const idempotencyLock = (claim: IdempotencyClaim) => `cairn.idempotency ${claim.userId} ${claim.key}`;

export const fingerprintOf = (raw: unknown) => createHash("sha256").update(stableJson(raw), "utf8").digest("hex");

/** A malformed key: the key's issues, named by the key's field. */
export function invalidKey(issues: readonly Issue[]): Rejection {
  return { category: "invalid", issues: issues.map((i) => ({ ...i, field: IDEMPOTENCY_FIELD })) };
}

export const keyMismatch = (): Rejection => ({
  category: "invalid",
  issues: [{ field: IDEMPOTENCY_FIELD, reason: "was already used with a different input in the last 24 hours" }],
  code: "idempotency_mismatch",
});

export async function findOutcome(sql: Sql, claim: IdempotencyClaim, now: Date): Promise<{ fingerprint: string; outcome: StoredOutcome } | undefined> {
  const [row] = await sql.query<{ fingerprint: string; outcome: StoredOutcome }>(
    "select fingerprint, outcome from idempotency_keys where user_id = $1 and key = $2 and created_at > $3",
    [claim.userId, claim.key, new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString()],
  );
  return row;
}

/** The argument of `cairn_save_outcome` (store/sql/cairn_save_outcome.sql): the outcome as the text Cairn serialised. */
export function outcomeArgument(claim: IdempotencyClaim, outcome: StoredOutcome, now: Date): Record<string, string> {
  return {
    user_id: claim.userId,
    key: claim.key,
    fingerprint: claim.fingerprint,
    outcome: JSON.stringify(outcome),
    created_at: now.toISOString(),
    since: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString(),
  };
}

/** Remembers the first outcome for a key; a live key is never overwritten, an expired one is (and the user's expired keys go). */
export async function saveOutcome(sql: Sql, claim: IdempotencyClaim, outcome: StoredOutcome, now: Date): Promise<void> {
  await sql.query("select cairn_save_outcome($1::jsonb)", [JSON.stringify(outcomeArgument(claim, outcome, now))]);
}

/** Answers again exactly as the first time: the stored artifact, or the stored error (same code, issues and drop). */
export function replayOutcome(outcome: StoredOutcome): CreatedArtifact {
  if (outcome.kind === "created") return outcome.value;
  const { code, message, issues, drop, existing } = outcome.error;
  throw new CairnError(code, message, {
    ...(issues && { issues }),
    ...(drop && { drop }),
    ...(existing && { existing }),
  });
}
