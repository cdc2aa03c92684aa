import { defineApiTag } from "../operations/api-tags.js";
import { defineOperation } from "../operations/define.js";
import { getPolicy } from "./get.js";
import { Policy, PolicyGetInput, PolicySetInput } from "./schemas.js";
import { setPolicy } from "./set.js";

/** This area's group in the API documentation. */
export const POLICY_TAG = defineApiTag(
  "Policy",
  "Owner policies that steer the gates: what happens to secrets, whether evidence is required, and how long new artifacts live.",
);

/** Owner policies that steer the gates. */
export const POLICY_OPERATIONS = {
  policy_get: defineOperation({
    title: "Read an owner's policy",
    description: "Read an owner's policy (yours by default, or a team's you belong to): secrets, entropy_detection, require_evidence, default_ttl_days.",
    input: PolicyGetInput,
    output: Policy,
    mutates: false,
    errors: ["forbidden"],
    run: getPolicy,
  }),
  policy_set: defineOperation({
    title: "Change an owner's policy",
    description:
      "Change an owner's policy (yours, or a team's you belong to). Send any subset of the fields; omitted ones keep their values. Returns the whole policy.",
    input: PolicySetInput,
    output: Policy,
    mutates: true,
    idempotent: true,
    permission: "policy:write",
    run: setPolicy,
  }),
} as const;
