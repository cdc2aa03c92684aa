import { Artifact } from "../artifact/schemas.js";
import { defineApiTag } from "../operations/api-tags.js";
import { defineOperation } from "../operations/define.js";
import { acknowledgeReceipt } from "./acknowledge.js";
import { listInbox } from "./list-inbox.js";
import { listOutcomes } from "./list-outcomes.js";
import { AcknowledgeInput, InboxList, InboxListInput, OutcomeList, OutcomesListInput } from "./schemas.js";

/** This area's group in the API documentation. */
export const INBOX_TAG = defineApiTag("Inbox", "The human loop: actions and outcomes that wait on people, and a person acknowledging a receipt.");

/** The human loop (SPEC §15): what waits on people, and a person saying they saw it. */
export const INBOX_OPERATIONS = {
  artifact_acknowledge: defineOperation({
    notOn: { mcp: "only a person can acknowledge" },
    title: "Acknowledge a receipt",
    description:
      "Say you saw what a receipt asks of you (its human_action), with an optional note. Human tokens only (agent tokens get 403: a model cannot tell a person it has been told); only the owner user or a member of the owner team; only while the receipt asks for something. Once per person: a second call keeps the first note. The receipt itself never changes. Returns the artifact with its acknowledgements.",
    input: AcknowledgeInput,
    output: Artifact,
    mutates: true,
    idempotent: true,
    permission: "acknowledgements:write",
    errors: ["not_found", "gone"],
    run: acknowledgeReceipt,
  }),
  inbox_list: defineOperation({
    title: "List what waits on people",
    description:
      "List receipts that ask a person for something (human_action is not Nothing), open asks with fixed answers first, each group newest first: `open` until someone acknowledges them (the default), `acknowledged`, or `all`. Each item has the chip's text, its age, its acknowledgements, its ask (options, answer_by, decision) and the receipt.",
    input: InboxListInput,
    output: InboxList,
    mutates: false,
    errors: ["forbidden"],
    run: listInbox,
  }),
  outcomes_list: defineOperation({
    title: "List outcomes that come due",
    description:
      "List pending outcomes by when they come due, the earliest first: `overdue` (the default: due, and no receipt follows it yet), `upcoming`, or `all` (also those a following receipt closed). Close one by leaving a receipt with `follows` set to its id.",
    input: OutcomesListInput,
    output: OutcomeList,
    mutates: false,
    errors: ["forbidden"],
    run: listOutcomes,
  }),
} as const;
