import { expiresInIssue } from "../artifact/internal.js";
import type { ServiceContext } from "../context.js";
import { answerByIssue } from "../decision/ask.js";
import { categoryOf } from "../drops/classification.js";
import { CairnError } from "../errors.js";
import { ownerIssue } from "../identity/owner.js";
import { gatingPolicy } from "../policy/cache.js";
import type { Policy, RevisedPolicy } from "../policy/schemas.js";
import { ROOT_FIELD } from "../validation.js";
import type { GateContext, GateReceipt } from "./custom-gate.js";
import { type Redaction, redactReceipt } from "./redact.js";
import type { Rejection, ValidReceipt } from "./validate.js";

/** A receipt the gates accepted: redacted, owned, with its owner's policy as read (and its revision, which the write re-checks). */
export interface GatedReceipt {
  receipt: ValidReceipt;
  owner: string;
  policy: RevisedPolicy;
  redactions: Redaction[];
}

export type GateOutcome = { ok: true; value: GatedReceipt } | { ok: false; rejection: Rejection };

const refuse = (rejection: Rejection): GateOutcome => ({ ok: false, rejection });

/** owner: the caller may create for itself or a team it belongs to (403 otherwise, still a drop). */
function ownerGate(ctx: ServiceContext, valid: ValidReceipt): { owner: string } | Rejection {
  const owner = valid.owner ?? `user:${ctx.principal.user.name}`;
  const issue = ownerIssue(ctx.principal, owner);
  return issue ? { category: "invalid", issues: [issue], code: "forbidden" } : { owner };
}

/** What the write answers when `follows` names no live receipt of the same owner (checked under its locks). */
export const followsRejection = (): Rejection => ({
  category: "foreign-link",
  issues: [{ field: "follows", reason: "names no receipt of the same owner" }],
});

/** secret-detected: under `secrets: block` any finding refuses; under `redact` findings are replaced. */
async function secretsGate(valid: ValidReceipt, policy: Policy) {
  const scanned = await redactReceipt(valid, { entropy: policy.entropy_detection }).catch((err: unknown) => {
    // Over a scan limit (LIMITS.scanChars, LIMITS.secretHits): refused as invalid, still a drop.
    if (err instanceof CairnError && err.code === "validation_failed") return { category: "invalid", issues: err.issues ?? [] } as const;
    throw err;
  });
  if ("category" in scanned) return { category: scanned.category, issues: [...scanned.issues] } satisfies Rejection;
  if (scanned.findings.length === 0 || policy.secrets === "redact") return scanned;
  const rulesByField = new Map<string, Set<string>>();
  for (const f of scanned.findings) rulesByField.set(f.field, (rulesByField.get(f.field) ?? new Set()).add(f.rule));
  const issues = [...rulesByField].map(([field, rules]) => ({
    field,
    reason: `contains a secret (${[...rules].join(", ")}); the owner's policy blocks secrets`,
  }));
  return { category: "secret-detected", issues, rule: "secrets" } satisfies Rejection;
}

/** policy-vetoed: the owner's policy rules, each named so doctor can tell whether it is still on. */
function policyGate(valid: ValidReceipt, policy: Policy): Rejection | null {
  if (policy.require_evidence && valid.metadata.evidence.length === 0) {
    const reason = `must link at least one piece of evidence (${policy.owner} has require_evidence on)`;
    return { category: "policy-vetoed", issues: [{ field: "evidence", reason }], rule: "require_evidence" };
  }
  return null;
}

/** Operator gates, in registration order. A reason outside the categories is `unknown`, still counted. */
async function customGates(ctx: ServiceContext, gated: GatedReceipt): Promise<Rejection | null> {
  const { receipt: r } = gated;
  const subject: GateReceipt = {
    owner: gated.owner,
    title: r.title,
    metadata: r.metadata,
    tags: r.tags,
    ...(r.details !== undefined && { details: r.details }),
    ...(r.model !== undefined && { model: r.model }),
  };
  const { user, token } = ctx.principal;
  const gateCtx: GateContext = {
    actor: { user: user.name, token: token.name, kind: token.kind },
    surface: ctx.surface,
    now: ctx.now(),
    requestId: ctx.requestId,
  };
  for (const gate of ctx.gates ?? []) {
    const refusal = await gate.check(subject, gateCtx);
    if (!refusal) continue;
    const fields = refusal.fields && refusal.fields.length > 0 ? refusal.fields : [ROOT_FIELD];
    return {
      category: categoryOf(refusal.category),
      issues: fields.map((field) => ({ field, reason: refusal.reason })),
      rule: gate.name,
    };
  }
  return null;
}

/**
 * The decision on a valid receipt, in a fixed order; the first gate that refuses decides:
 *   owner (forbidden) → expires_in within the owner's TTL (invalid) → the ask's answer_by
 *   still ahead (invalid) → secrets (redact, or
 *   secret-detected) → policy (policy-vetoed) → custom gates (their category, else unknown).
 * Before it, parsing (validate.ts: schema → shape → links → thinness); after it, under
 * the write's locks (write.ts): follows (foreign-link), assignee (invalid), duplicate.
 * Reads nothing but the owner's policy (cached; the write re-checks its revision).
 */
export async function decideReceipt(ctx: ServiceContext, valid: ValidReceipt): Promise<GateOutcome> {
  const owned = ownerGate(ctx, valid);
  if (!("owner" in owned)) return refuse(owned);
  const { owner } = owned;

  const revised = await gatingPolicy(ctx, owner);
  const { policy } = revised;
  const lifetime = expiresInIssue(policy.default_ttl_days, valid.expiresIn);
  if (lifetime) return refuse({ category: "invalid", issues: [lifetime] });
  const deadline = answerByIssue(valid.ask, ctx.now());
  if (deadline) return refuse({ category: "invalid", issues: [deadline] });
  const scanned = await secretsGate(valid, policy);
  if ("category" in scanned) return refuse(scanned);

  const vetoed = policyGate(scanned.receipt, policy);
  if (vetoed) return refuse(vetoed);

  const gated: GatedReceipt = { receipt: scanned.receipt, owner, policy: revised, redactions: scanned.redactions };
  const custom = await customGates(ctx, gated);
  return custom ? refuse(custom) : { ok: true, value: gated };
}
