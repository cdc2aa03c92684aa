import { z } from "zod";
import { OwnerRef } from "../identity/names.js";

export const SECRETS_MODES = ["redact", "block"] as const;
export const MAX_TTL_DAYS = 3650;

const PolicyFields = {
  secrets: z
    .enum(SECRETS_MODES)
    .describe(
      "What happens to a secret found in a receipt: `redact` replaces it by [REDACTED:<rule>] (default), `block` refuses the receipt (drop: secret-detected).",
    ),
  entropy_detection: z.boolean().describe("Also treat generic high-entropy strings (random-looking tokens) as secrets. Default false."),
  require_evidence: z.boolean().describe("Refuse receipts with an empty evidence list (drop: policy-vetoed). Default false."),
  default_ttl_days: z
    .number()
    .int()
    .min(1)
    .max(MAX_TTL_DAYS)
    .describe(`Days until a new artifact of this owner expires unless retained, 1-${MAX_TTL_DAYS}. Default 7.`),
};

export const Policy = z
  .object({
    owner: z.string().describe("`user:NAME` or `team:NAME` the policy belongs to."),
    ...PolicyFields,
  })
  .meta({ id: "Policy", description: "An owner's policy for receipts and artifacts." });
export type Policy = z.infer<typeof Policy>;

export type PolicySettings = Omit<Policy, "owner">;

/**
 * A policy as the receipt gates use it, with the revision it was read at: every write of
 * the owner's policy row takes a new one (migration 0022), 0 when the owner has none. The
 * receipt write compares this number, never the fields (ADR 0050).
 */
export interface RevisedPolicy {
  policy: Policy;
  revision: number;
}

export const DEFAULT_POLICY: PolicySettings = {
  secrets: "redact",
  entropy_detection: false,
  require_evidence: false,
  default_ttl_days: 7,
};

const PolicyOwner = OwnerRef.describe("Whose policy: `user:NAME` (yourself) or `team:NAME` (a team you belong to). Defaults to you.");

export const PolicyGetInput = z.strictObject({ owner: PolicyOwner.optional() });

export const PolicySetInput = z
  .strictObject({
    owner: PolicyOwner.optional(),
    secrets: PolicyFields.secrets.optional(),
    entropy_detection: PolicyFields.entropy_detection.optional(),
    require_evidence: PolicyFields.require_evidence.optional(),
    default_ttl_days: PolicyFields.default_ttl_days.optional(),
  })
  .meta({ id: "PolicySetInput", description: "Any subset of the policy fields; omitted ones keep their values." });
