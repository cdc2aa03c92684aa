import { defaultLogger } from "../log.js";
import type { CreatedArtifact } from "../artifact/schemas.js";
import type { ServiceContext } from "../context.js";
import { recordDrop } from "../drops/record.js";
import { CairnError, describeIssues, type ExistingArtifactRef } from "../errors.js";
import { runReceiptGates } from "./gates.js";
import {
  fingerprintOf,
  findOutcome,
  type IdempotencyClaim,
  IdempotencyKey,
  invalidKey,
  keyMismatch,
  replayOutcome,
  saveOutcome,
} from "./idempotency.js";
import { insertReceipt } from "./insert.js";
import { renderValidReceipt } from "./prepare.js";
import type { Rejection } from "./validate.js";
import { issuesFromZod, ROOT_FIELD } from "../validation.js";

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
 * A refusal, after the decision: persist the drop receipt (never fails the caller), build
 * the error carrying it, and remember it under the caller's idempotency key.
 */
async function refuse(
  ctx: ServiceContext,
  raw: unknown,
  rejection: Rejection,
  claim: IdempotencyClaim | null,
  existing?: ExistingArtifactRef,
): Promise<CairnError> {
  const drop = await recordDrop(ctx, raw, rejection);
  const error = rejectionError(rejection, drop, existing);
  if (claim) {
    await saveOutcome(ctx.store, claim, { kind: "rejected", error: error.toBody() }, ctx.now()).catch((err) =>
      (ctx.logger ?? defaultLogger).error({ code: "idempotency_save_failed", requestId: ctx.requestId }, err),
    );
  }
  return error;
}

/**
 * receipt_create: idempotency → gates (gates.ts, in order) → render → duplicate check and
 * insert in one transaction. Every refusal leaves a drop receipt; a replay does not.
 */
export async function createReceipt(ctx: ServiceContext, raw: unknown): Promise<CreatedArtifact> {
  let claim: IdempotencyClaim | null = null;
  if (ctx.idempotencyKey !== undefined) {
    const key = IdempotencyKey.safeParse(ctx.idempotencyKey);
    if (!key.success) throw await refuse(ctx, raw, invalidKey(issuesFromZod(key.error, ctx.idempotencyKey)), null);
    claim = { userId: ctx.principal.user.id, key: key.data, fingerprint: fingerprintOf(raw) };
    const seen = await findOutcome(ctx.store, claim, ctx.now());
    if (seen?.fingerprint === claim.fingerprint) return replayOutcome(seen.outcome);
    if (seen) throw await refuse(ctx, raw, keyMismatch(), null);
  }

  const gated = await runReceiptGates(ctx, raw);
  if (!gated.ok) throw await refuse(ctx, raw, gated.rejection, claim);

  const prepared = renderValidReceipt(gated.value.receipt);
  const outcome = await insertReceipt(ctx, gated.value, prepared, claim);
  switch (outcome.kind) {
    case "created":
      return outcome.value;
    case "replay":
      return replayOutcome(outcome.outcome);
    case "mismatch":
      throw await refuse(ctx, raw, keyMismatch(), null);
    case "duplicate":
      throw await refuse(ctx, raw, { category: "duplicate", issues: [] }, claim, outcome.existing);
  }
}

/** Input a surface could not read at all (malformed JSON, over the size limit) is a refused submission too. */
export async function refuseUnreadableReceipt(ctx: ServiceContext, error: CairnError): Promise<CairnError> {
  const issues = error.issues ?? [{ field: ROOT_FIELD, reason: "could not be read" }];
  const drop = await recordDrop(ctx, undefined, { category: "invalid", issues });
  return new CairnError(error.code, error.message, { issues, drop });
}
