import { DropList, DropsListInput } from "../drops/schemas.js";
import { listDrops } from "../drops/list.js";
import { runDoctor } from "../health/doctor.js";
import { Doctor, DoctorInput, Status, StatusInput } from "../health/schemas.js";
import { readStatus } from "../health/status.js";
import { getPolicy, setPolicy } from "../policy/operations.js";
import { Policy, PolicyGetInput, PolicySetInput } from "../policy/schemas.js";
import { defineOperation } from "./define.js";

/** What the gates refused and why, the owner policies that steer them, and the health views over both. */
export const GATE_OPERATIONS = {
  drops_list: defineOperation({
    name: "drops_list",
    description:
      "List drop receipts: receipt submissions the gates refused (for you and your teams), newest first, over a trailing window (default 7 days). Each says the category, whether you can fix it, the cause, the next action and the failing fields — never the content.",
    input: DropsListInput,
    output: DropList,
    mutates: false,
    run: listDrops,
  }),
  doctor: defineOperation({
    name: "doctor",
    description:
      "Check the health of your receipts over the last 7 days: Database, Drops (warns when refusals you can fix happened, with the next action) and Policy (while a policy that vetoed receipts is still on).",
    input: DoctorInput,
    output: Doctor,
    mutates: false,
    run: runDoctor,
  }),
  status: defineOperation({
    name: "status",
    description: "Your last receipt and the drop rollup of the last 7 days, e.g. `Drops (7d): 2 invalid, 1 policy-vetoed, 3 duplicate`.",
    input: StatusInput,
    output: Status,
    mutates: false,
    run: readStatus,
  }),
  policy_get: defineOperation({
    name: "policy_get",
    description: "Read an owner's policy (yours by default, or a team's you belong to): secrets, entropy_detection, require_evidence, default_ttl_days.",
    input: PolicyGetInput,
    output: Policy,
    mutates: false,
    run: getPolicy,
  }),
  policy_set: defineOperation({
    name: "policy_set",
    description:
      "Change an owner's policy (yours, or a team's you belong to). Send any subset of the fields; omitted ones keep their values. Returns the whole policy.",
    input: PolicySetInput,
    output: Policy,
    mutates: true,
    run: setPolicy,
  }),
} as const;
