import { defineApiTag } from "../operations/api-tags.js";
import { defineOperation } from "../operations/define.js";
import { appendSpans } from "./append-spans.js";
import { closeRun } from "./close.js";
import { createRun } from "./create.js";
import { deleteRun } from "./delete.js";
import { listRuns } from "./list.js";
import { readRun } from "./read.js";
import { Run, RunAppendSpansInput, RunAppendSpansOutput, RunCreateInput, RunDeleted, RunList, RunListInput, RunReadInput, RunRef } from "./schemas.js";

/** This area's group in the API documentation. */
export const RUN_TAG = defineApiTag(
  "Runs",
  "Runs and their spans (OpenTelemetry-inspired): a span naming `produced_artifact_id` links the run to that artifact.",
);

/** Runs and spans (OpenTelemetry-inspired). A span naming `produced_artifact_id` links the run to that artifact. */
export const RUN_OPERATIONS = {
  run_create: defineOperation({
    title: "Start a run",
    description:
      'Start a run (a trace of work) for yourself or a team you belong to. Append spans as work finishes; a span naming `produced_artifact_id` shows the run as "Produced by" on that artifact.',
    input: RunCreateInput,
    output: Run,
    mutates: true,
    permission: "runs:write",
    errors: ["forbidden"],
    run: createRun,
  }),
  run_append_spans: defineOperation({
    title: "Append spans to a run",
    description:
      "Append a batch of spans to an open run. To link a receipt, create the receipt first, then append the span that names it in `produced_artifact_id` (it must have the run's owner). All spans are stored or none; re-sending an identical span is a no-op.",
    input: RunAppendSpansInput,
    output: RunAppendSpansOutput,
    mutates: true,
    idempotent: true,
    permission: "runs:write",
    errors: ["not_found"],
    run: appendSpans,
  }),
  run_close: defineOperation({
    title: "Close a run",
    description: "Close a run: it accepts no more spans. Closing a closed run changes nothing.",
    input: RunRef,
    output: Run,
    mutates: true,
    idempotent: true,
    permission: "runs:write",
    errors: ["not_found"],
    run: closeRun,
  }),
  run_read: defineOperation({
    title: "Read a run",
    description:
      "Read a run: its state (`open`/`ended`, `error`), totals (usage, models, duration, span and error counts), the receipts it produced (each once) and its spans in start order, a page at a time (`spans_limit`, default 1,000; `spans_next_cursor` reads on). Only the owner user or members of the owning team can see a run; runs have no share links.",
    input: RunReadInput,
    output: Run,
    mutates: false,
    errors: ["not_found"],
    run: readRun,
  }),
  run_list: defineOperation({
    title: "List runs",
    description:
      "List your runs and your teams' runs, newest first, with their state and totals: runs you started and runs made from OpenTelemetry traces (POST /v1/traces). Filters combine with AND: `q` (a name or a trace id), `agent`, `model`, `status` (open|ended), `error`, `conversation`, `since`, `before`.",
    input: RunListInput,
    output: RunList,
    mutates: false,
    errors: ["forbidden"],
    run: listRuns,
  }),
  run_delete: defineOperation({
    notOn: { mcp: "deleting a record of work is a person's decision; an agent's runs expire under the owner's TTL" },
    title: "Delete a run",
    description:
      "Delete a run with its spans and its links to the receipts it produced; the receipts stay and stop naming it. Spans that arrive later for its trace start a new run. Owner only (404 for anyone else); human tokens only.",
    input: RunRef,
    output: RunDeleted,
    mutates: true,
    permission: "runs:delete",
    destructive: true,
    errors: ["not_found"],
    run: deleteRun,
  }),
} as const;
