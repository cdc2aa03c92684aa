import { CreatedArtifact } from "../artifact/schemas.js";
import { defineApiTag } from "../operations/api-tags.js";
import { defineOperation } from "../operations/define.js";
import { createReceipt } from "./create.js";
import { ReceiptCreateInput } from "./schemas.js";

/** This area's group in the API documentation. */
export const RECEIPT_TAG = defineApiTag(
  "Receipts",
  "Leave a structured receipt when work is finished: what changed, who is affected, before and after, evidence, outcome, what a human must do, what remains and what was learned. Every submission the server refuses leaves a drop receipt.",
);

/** Receipts: the structured record an agent or script leaves when it finishes work. */
export const RECEIPT_OPERATIONS = {
  receipt_create: defineOperation({
    title: "Leave a receipt",
    description:
      "Leave a structured receipt when you finish work: what changed, who is affected, before and after, evidence, outcome, what a human must do, what remains and what was learned. The server redacts secrets, renders the body, checksums it and returns a share link. Receipts expire after the owner's default_ttl_days (7 unless the policy changes it) unless retained. A refused receipt leaves a drop receipt (see drops_list).",
    input: ReceiptCreateInput,
    output: CreatedArtifact,
    mutates: true,
    permission: "receipts:write",
    errors: ["unknown_schema", "duplicate", "idempotency_mismatch", "forbidden"],
    headers: ["Idempotency-Key", "traceparent"],
    // Its own way in: the gates read the raw input (every refusal is classified and leaves a drop), and the one write re-checks a cached caller.
    invoke: createReceipt,
  }),
} as const;
