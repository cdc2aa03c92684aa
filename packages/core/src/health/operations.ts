import { defineOperation } from "../operations/define.js";
import { runDoctor } from "./doctor.js";
import { Doctor, DoctorInput, Status, StatusInput } from "./schemas.js";
import { readStatus } from "./status.js";

/** Health views over receipts, drops and policies. */
export const HEALTH_OPERATIONS = {
  doctor: defineOperation({
    title: "Check Cairn's health for you",
    description:
      "Check the health of your receipts over the last 7 days: Database, Drops (warns when refusals you can fix happened, with the next action) Policy (while a policy that vetoed receipts is still on), Webhooks, and Inbox (warns when an open action is older than 3 days or an outcome is overdue).",
    input: DoctorInput,
    output: Doctor,
    mutates: false,
    run: runDoctor,
  }),
  status: defineOperation({
    title: "Last receipt and refusals this week",
    description:
      "Your last receipt, the drop rollup of the last 7 days (e.g. `Drops (7d): 2 invalid, 1 policy-vetoed, 3 duplicate`) and what waits on people (`Inbox: 3 open (1 yours), oldest 2 days`).",
    input: StatusInput,
    output: Status,
    mutates: false,
    run: readStatus,
  }),
} as const;
