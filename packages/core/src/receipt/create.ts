import { unassignableIssue } from "../artifact/assign.js";
import type { CreatedArtifact } from "../artifact/schemas.js";
import type { ServiceContext } from "../context.js";
import { recordDrop } from "../drops/record.js";
import { CairnError, conflict, describeIssues, type ExistingArtifactRef } from "../errors.js";
import { ringOutbox } from "../events/wake.js";
import { requirePermission } from "../identity/permissions.js";
import { checkedContext } from "../identity/principal-cache.js";
import { UnreadableInput } from "../operations/define.js";
import { forgetPolicy } from "../policy/cache.js";
import { issuesFromZod, ROOT_FIELD } from "../validation.js";
import { decideReceipt, followsRejection } from "./gates.js";
import {
  findOutcome,
  fingerprintOf,
  type IdempotencyClaim,
  IdempotencyKey,
  idempotencyLock,
  invalidKey,
  keyMismatch,
  replayOutcome,
  saveOutcome,
} from "./idempotency.js";
import { type Rejection, type ValidReceipt, validateReceiptInput } from "./validate.js";
import { type StaleFact, writeReceipt } from "./write.js";

/** Tries when the write keeps finding what the decision relied on changed. */
const ATTEMPTS = 3;

const STALE_WORDS: Record<StaleFact, string> = {
  token: "The token",
  team: "Your membership of the owner team",
  policy: "The owner's policy",
};

/**
 * receipt_create, top-down: parse (key, static gates) → the caller's permission → decide
 * (gates.ts: owner, expires_in, secrets, policy, custom gates) → one write that re-checks
 * the caller and the policy under its locks and answers a status (write.ts) → announce.
 * Every refusal leaves a drop receipt, a replay does not. A caller from the cache is
 * checked by the write itself, or read again before a refusal. When the write finds what
 * the decision relied on changed, the decision is made again with fresh facts, at most
 * ATTEMPTS times; then the answer is a `conflict` that says what kept changing.
 * Why: docs/adr/0027-one-statement-receipt-write-checked-caches.md.
 */
export async function createReceipt(ctx: ServiceContext, raw: unknown): Promise<CreatedArtifact> {
  requirePermission(ctx.principal, "receipts:write");
  if (raw instanceof UnreadableInput) return refuseUnreadable(ctx, raw.error);
  const parsed = parseSubmission(ctx, raw);
  let caller = ctx;
  let why: StaleFact = "policy";
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const decided = parsed.ok ? await decideReceipt(caller, parsed.receipt) : parsed;
    if (!decided.ok) {
      const confirmed = await confirmedCaller(caller);
      caller = confirmed.ctx;
      if (confirmed.changed) continue;
      return refuse(caller, raw, decided.rejection, parsed.claim);
    }
    const { owner } = decided.value;
    const written = await writeReceipt(caller, decided.value, parsed.claim);
    switch (written.status) {
      case "created":
        // Announce: the worker is woken only when the write queued a delivery.
        if (written.deliveries > 0) ringOutbox();
        return written.value;
      case "replay":
        return written.fingerprint === parsed.claim?.fingerprint ? replayOutcome(written.outcome) : refuse(caller, raw, keyMismatch(), null);
      case "stale":
        why = written.why;
        if (why === "policy") forgetPolicy(caller, owner);
        else caller = await checkedContext(caller, { force: true });
        continue;
      case "duplicate":
        return refuse(caller, raw, { category: "duplicate", issues: [] }, parsed.claim, written.existing);
      case "foreign-link":
        return refuse(caller, raw, followsRejection(), parsed.claim);
      case "unassignable":
        // The assignee must be able to read it (SPEC §20): an unknown user is `invalid`, still a drop.
        return refuse(caller, raw, { category: "invalid", issues: [unassignableIssue(owner)] }, parsed.claim);
    }
  }
  throw conflict(`${STALE_WORDS[why]} changed during each of ${ATTEMPTS} attempts to store this receipt; nothing was stored. Send it again.`);
}

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

/** What parsing found: the key's claim (null without a key), and the valid receipt or the refusal. */
type Parsed = { claim: IdempotencyClaim | null } & ({ ok: true; receipt: ValidReceipt } | { ok: false; rejection: Rejection });

/** Parse: the Idempotency-Key (a malformed one refuses, naming the key), then the receipt's static gates (validate.ts). */
function parseSubmission(ctx: ServiceContext, raw: unknown): Parsed {
  if (ctx.idempotencyKey === undefined) return { claim: null, ...receiptOf(raw) };
  const key = IdempotencyKey.safeParse(ctx.idempotencyKey);
  if (!key.success) return { claim: null, ok: false, rejection: invalidKey(issuesFromZod(key.error, ctx.idempotencyKey)) };
  return { claim: { userId: ctx.principal.user.id, key: key.data, fingerprint: fingerprintOf(raw) }, ...receiptOf(raw) };
}

function receiptOf(raw: unknown): { ok: true; receipt: ValidReceipt } | { ok: false; rejection: Rejection } {
  const validation = validateReceiptInput(raw);
  return validation.ok ? { ok: true, receipt: validation.value } : validation;
}

/**
 * A refusal is given only to a caller read for this request (a cached caller is never refused unread): one from the cache
 * is read again (401 when its token is gone). `changed` when what was read differs, so
 * the decision is made again with it; otherwise the refusal stands as decided.
 */
async function confirmedCaller(ctx: ServiceContext): Promise<{ ctx: ServiceContext; changed: boolean }> {
  if (!ctx.principalUnchecked) return { ctx, changed: false };
  const checked = await checkedContext(ctx);
  return { ctx: checked, changed: JSON.stringify(checked.principal) !== JSON.stringify(ctx.principal) };
}

/** Input a surface could not read at all (malformed JSON, over the size limit) is a refused submission too: its code and words, and a drop. */
async function refuseUnreadable(ctx: ServiceContext, error: CairnError): Promise<never> {
  const { ctx: checked } = await confirmedCaller(ctx);
  const issues = error.issues ?? [{ field: ROOT_FIELD, reason: "could not be read" }];
  const drop = await recordDrop(checked, undefined, { category: "invalid", issues });
  throw new CairnError(error.code, error.message, { issues, drop });
}
