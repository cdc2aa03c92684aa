import { Artifact } from "../artifact/schemas.js";
import { defineApiTag } from "../operations/api-tags.js";
import { defineOperation } from "../operations/define.js";
import { decideAsk } from "./decide.js";
import { DecideInput, DecisionState, DecisionWaitInput } from "./schemas.js";
import { waitForDecision } from "./wait.js";

/** This area's group in the API documentation. */
export const DECISION_TAG = defineApiTag(
  "Decisions",
  "A receipt asks a question with fixed answers; a person answers it; the agent that asked waits for the answer.",
);

/** Decisions (SPEC §32): the answer, and hearing it. The ask itself is part of receipt_create. */
export const DECISION_OPERATIONS = {
  artifact_decide: defineOperation({
    notOn: { mcp: "only a person can answer an ask; a model cannot decide for one" },
    title: "Answer a receipt's ask",
    description:
      "Choose one of the options a receipt's ask offers, with a comment when the ask allows or requires one. Human tokens only (agent tokens get 403: a model cannot decide for a person); only the owner user or a member of the owner team. The first answer is final: a different later answer is 409 already_decided naming who chose what and when; the same person's same option again changes nothing. After answer_by it is 409 expired. Answering also acknowledges. Returns the artifact with its decision.",
    input: DecideInput,
    output: Artifact,
    mutates: true,
    idempotent: true,
    permission: "decisions:write",
    errors: ["already_decided", "expired", "not_found", "gone"],
    run: decideAsk,
  }),
  decision_wait: defineOperation({
    title: "Wait for the answer to an ask",
    description:
      "Where a receipt's ask stands: `decided` (with the decision: option, label, comment, by, via, at), `expired`, or `open`. With `wait` (or `timeout_s`) up to 60 seconds, an open ask holds the call until someone answers, the ask expires or the time is up — call it again to keep waiting. Use it after receipt_create with an `ask` to act on the person's choice.",
    input: DecisionWaitInput,
    output: DecisionState,
    mutates: false,
    errors: ["not_found", "gone"],
    run: waitForDecision,
  }),
} as const;
