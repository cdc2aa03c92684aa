import type { CreatedArtifact } from "../artifact/schemas.js";
import type { ServiceContext } from "../context.js";
import { recordDrop } from "../drops/record.js";
import { CairnError, describeIssues, type ExistingArtifactRef, unavailable } from "../errors.js";
import { defaultLogger } from "../log.js";
import { checkedContext } from "../identity/principal-cache.js";
import { forgetPolicy } from "../policy/cache.js";
import { followsRejection, runReceiptGates } from "./gates.js";
import {
  fingerprintOf,
  findOutcome,
  type IdempotencyClaim,
  idempotencyLock,
  IdempotencyKey,
  invalidKey,
  keyMismatch,
  replayOutcome,
  saveOutcome,
  type StoredOutcome,
} from "./idempotency.js";
import { type InsertOptions, insertReceipt } from "./insert.js";
import { renderValidReceipt } from "./prepare.js";
import type { Rejection } from "./validate.js";
import { issuesFromZod, ROOT_FIELD } from "../validation.js";
import { linkTrace } from "../run/trace-links.js";

function errorCodeOf(rejection: Rejection) {
  if (rejection.code) return rejection.code;
  if (rejection.category === "unknown-schema") return "unknown_schema";
  return rejection.category === "duplicate" ? "duplicate" : "validation_failed";
}

/** Turns a decided rejection and its drop receipt into the error every surface shows. */
export function rejectionError(rejection: Rejection, drop: CairnError["drop"], existing?: ExistingArtifactRef): CairnError {
  const code = errorCodeOf(rejection);
  const message =
    code === "duplicate"
      ? `An identical receipt from the same owner was stored in the last 24 hours${existing ? ` (${existing.id})` : ""}.`
      : code === "forbidden"
        ? `owner: ${rejection.issues[0]?.reason ?? "not allowed"}.`
        : describeIssues(rejection.issues);
  return new CairnError(code, message, { issues: rejection.issues, ...(drop && { drop }), ...(existing && { existing }) });
}

/**
 * A refusal, after the decision: persist the drop receipt (never fails the caller) and
 * answer the error carrying it. Under an idempotency key, the drop and the key's outcome
 * are written in one transaction under the key's lock, after looking for an outcome once
 * more: concurrent retries of one refused body leave one drop and all get its answer.
 */
async function refuse(
  ctx: ServiceContext,
  raw: unknown,
  rejection: Rejection,
  claim: IdempotencyClaim | null,
  existing?: ExistingArtifactRef,
): Promise<CreatedArtifact> {
  if (!claim) throw rejectionError(rejection, await recordDrop(ctx, raw, rejection), existing);
  const recorded = await recordDrop(ctx, raw, rejection, {
    lock: idempotencyLock(claim),
    check: (tx) => findOutcome(tx, claim, ctx.now()),
    save: (tx, drop) => saveOutcome(tx, claim, { kind: "rejected", error: rejectionError(rejection, drop, existing).toBody() }, ctx.now()),
  });
  if ("drop" in recorded) throw rejectionError(rejection, recorded.drop, existing);
  if (recorded.answered.fingerprint !== claim.fingerprint) return refuse(ctx, raw, keyMismatch(), null);
  // The key's first answer, even a created receipt (the owner's policy changed in between).
  return replayOutcome(recorded.answered.outcome);
}

/** What one attempt decided; only `created` is final for a caller taken from the cache. */
type Attempt =
  | { kind: "created"; value: CreatedArtifact }
  | { kind: "replay"; outcome: StoredOutcome }
  | { kind: "refused"; rejection: Rejection; claim: IdempotencyClaim | null; existing?: ExistingArtifactRef }
  | { kind: "stale" };

/** Tries when the write keeps finding the caller's facts changed; the last one does not re-check the policy. */
const ATTEMPTS = 3;

/**
 * receipt_create: idempotency → gates (gates.ts, in order) → render → one write that
 * re-checks the caller, takes the locks, checks duplicates and inserts (insert.ts). Every
 * refusal leaves a drop receipt; a replay does not. A refusal or a replay is only given
 * to a caller read for this request: one from the cache is re-read and the receipt tried
 * again, so a revoked token gets 401 and leaves nothing (ADR 0027).
 */
export async function createReceipt(ctx: ServiceContext, raw: unknown): Promise<CreatedArtifact> {
  let current = ctx;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const outcome = await attemptReceipt(current, raw, { checkPolicy: attempt < ATTEMPTS });
    if (outcome.kind === "created") {
      // The receipt is stored: a trace link that cannot be written is logged, never a failed create (a retry would be a duplicate).
      await linkTrace(current, outcome.value).catch((err: unknown) =>
        (current.logger ?? defaultLogger).warn({ code: "trace_link_not_written", requestId: current.requestId, artifact: outcome.value.id }, err),
      );
      return outcome.value;
    }
    if (outcome.kind === "stale" || current.principalUnchecked) {
      current = await checkedContext(current, { force: true });
      continue;
    }
    if (outcome.kind === "replay") return replayOutcome(outcome.outcome);
    return refuse(current, raw, outcome.rejection, outcome.claim, outcome.existing);
  }
  throw unavailable();
}

async function attemptReceipt(ctx: ServiceContext, raw: unknown, options: InsertOptions): Promise<Attempt> {
  let claim: IdempotencyClaim | null = null;
  if (ctx.idempotencyKey !== undefined) {
    const key = IdempotencyKey.safeParse(ctx.idempotencyKey);
    if (!key.success) return { kind: "refused", rejection: invalidKey(issuesFromZod(key.error, ctx.idempotencyKey)), claim: null };
    claim = { userId: ctx.principal.user.id, key: key.data, fingerprint: fingerprintOf(raw) };
    const seen = await findOutcome(ctx.store, claim, ctx.now());
    if (seen?.fingerprint === claim.fingerprint) return { kind: "replay", outcome: seen.outcome };
    if (seen) return { kind: "refused", rejection: keyMismatch(), claim: null };
  }

  const gated = await runReceiptGates(ctx, raw);
  if (!gated.ok) return { kind: "refused", rejection: gated.rejection, claim };

  const prepared = renderValidReceipt(gated.value.receipt);
  const outcome = await insertReceipt(ctx, gated.value, prepared, claim, options);
  switch (outcome.kind) {
    case "created":
    case "replay":
      return outcome;
    case "stale":
      if (outcome.why === "policy") forgetPolicy(ctx, gated.value.owner);
      return { kind: "stale" };
    case "mismatch":
      return { kind: "refused", rejection: keyMismatch(), claim: null };
    case "duplicate":
      return { kind: "refused", rejection: { category: "duplicate", issues: [] }, claim, existing: outcome.existing };
    case "foreign-link":
      return { kind: "refused", rejection: followsRejection(), claim };
  }
}

/** Input a surface could not read at all (malformed JSON, over the size limit) is a refused submission too. */
export async function refuseUnreadableReceipt(ctx: ServiceContext, error: CairnError): Promise<CairnError> {
  const issues = error.issues ?? [{ field: ROOT_FIELD, reason: "could not be read" }];
  const drop = await recordDrop(ctx, undefined, { category: "invalid", issues });
  return new CairnError(error.code, error.message, { issues, drop });
}
