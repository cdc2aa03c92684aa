import { z } from "zod";
import { Provenance, SearchInstant } from "../artifact/schemas.js";
import { calendarError, isCalendarDateTime, isInStoredRange } from "../dates.js";
import { OwnerRef } from "../identity/names.js";
import { LIMITS } from "../limits.js";
import { PAGE_FIELDS } from "../paging.js";
import { queryText, storableId, storableString, titleText } from "../text.js";

/** Limits of the trace model, documented in the schemas and enforced with the field named. */
export const RUN_LIMITS = {
  spansPerAppend: 500,
  spansPerRun: 10_000,
  spanId: 64,
  attributes: 64,
  attributeKey: 128,
  attributeValue: 4_000,
  attributeList: 50,
} as const;

const SPAN_ID_PATTERN = /^[A-Za-z0-9._:-]+$/;

export const SpanId = storableString()
  .min(1)
  .max(RUN_LIMITS.spanId)
  .regex(SPAN_ID_PATTERN, "may contain only letters, digits, '.', '_', ':' and '-'")
  .describe(`Span id, unique within its run, e.g. an OpenTelemetry span id (16 hex digits). At most ${RUN_LIMITS.spanId} characters.`);

const IsoDateTime = (description: string) =>
  storableString()
    .max(64)
    .refine((s) => isCalendarDateTime(s, { dateOnly: false }), {
      error: calendarError("must be an ISO 8601 date-time with a zone, e.g. 2026-11-01T10:00:00Z"),
      abort: true,
    })
    .refine(isInStoredRange, "must be between 1970-01-01 and 9999-12-31")
    .meta({ format: "date-time" })
    .describe(`${description} ISO 8601 date-time with a zone; stored in UTC to the millisecond.`);

const Scalar = z.union([storableString().max(RUN_LIMITS.attributeValue), z.number(), z.boolean()]);
const AttributeValue = z.union([Scalar, z.array(Scalar).max(RUN_LIMITS.attributeList)], {
  error: "must be a string, number, boolean or a list of those",
});

export const SpanAttributes = z
  .record(storableString().min(1).max(RUN_LIMITS.attributeKey), AttributeValue)
  .describe(`Key/value attributes as in OpenTelemetry: each value a string, number, boolean or a list of those. At most ${RUN_LIMITS.attributes} keys.`);

export const SpanInput = z
  .strictObject({
    span_id: SpanId,
    parent_span_id: SpanId.nullable().optional().describe("The parent span's id, or null/omitted for a root span. The parent may arrive in a later append."),
    name: titleText(LIMITS.title, "What the span did, e.g. write-receipt."),
    start_time: IsoDateTime("When the span started."),
    end_time: IsoDateTime("When the span ended; omit for a span still in progress.").optional(),
    attributes: SpanAttributes.optional(),
    produced_artifact_id: storableString()
      .min(1)
      .max(64)
      .optional()
      .describe(
        "Id of the artifact this span produced. It must already exist and have the run's owner: create the receipt first, then append the span that names it.",
      ),
  })
  .describe("One span of a run (OpenTelemetry-inspired).");
export type SpanInput = z.output<typeof SpanInput>;

export const SPAN_STATUS_CODES = ["unset", "ok", "error"] as const;

export const SpanStatus = z
  .object({
    code: z.enum(SPAN_STATUS_CODES).describe("OpenTelemetry status code: `unset` (the default), `ok` or `error`."),
    message: z.string().nullable().describe("The status message (OpenTelemetry sets one only with `error`), or null."),
  })
  .meta({ id: "SpanStatus", description: "An OpenTelemetry span status." });
export type SpanStatus = z.infer<typeof SpanStatus>;

export const Span = z
  .object({
    span_id: z.string().describe("Span id, unique within its run."),
    parent_span_id: z.string().nullable().describe("Parent span id, or null for a root span."),
    name: z.string().describe("What the span did."),
    start_time: z.string().describe("ISO 8601 start time (UTC)."),
    end_time: z.string().nullable().describe("ISO 8601 end time (UTC), or null while in progress."),
    attributes: z.record(z.string(), z.unknown()).describe("Key/value attributes."),
    produced_artifact_id: z.string().nullable().describe("Id of the artifact this span produced, or null."),
    status: SpanStatus.nullable().describe("The span's OpenTelemetry status, or null for a span appended without one."),
    resource: z
      .record(z.string(), z.unknown())
      .describe("Attributes of the resource that emitted the span (OTLP ingest), e.g. service.name; empty for appended spans."),
  })
  .meta({ id: "Span", description: "A stored span." });
export type Span = z.infer<typeof Span>;

export const RunId = storableId(64, "Run id (run_…).");

export const RUN_STATES = ["open", "ended"] as const;

const RunStatus = z.enum(RUN_STATES).describe("`ended` once its root span ended or it was closed (a run made from traces ends by itself); `open` before.");

export const RunUsage = z
  .object({
    input_tokens: z.number().int().describe("Sum of the spans' `gen_ai.usage.input_tokens`."),
    output_tokens: z.number().int().describe("Sum of the spans' `gen_ai.usage.output_tokens`."),
  })
  .meta({ id: "RunUsage", description: "Tokens the run's model calls used, summed from its spans." });

/** State and totals (SPEC §28), kept on the run row as spans arrive: the same on a run, a list item and the page. */
const RUN_TOTALS = {
  status: RunStatus,
  error: z.boolean().describe("True when a span ended in error (error_count > 0)."),
  span_count: z.number().int().describe("Spans stored in the run."),
  error_count: z.number().int().describe("Spans whose OpenTelemetry status is `error`."),
  usage: RunUsage,
  models: z.array(z.string()).describe("Distinct `gen_ai.request.model` / `gen_ai.response.model` values of its spans, sorted."),
  duration_ms: z.number().int().nullable().describe("From the earliest span start to the latest span end, in milliseconds; null before a span has ended."),
  conversation_id: z
    .string()
    .nullable()
    .describe("`gen_ai.conversation.id` (else `session.id`) of its spans: runs sharing it form one conversation. Null when none said."),
  ended_at: z.string().nullable().describe("ISO 8601 time the run ended (its root span's end, or the close), or null while open."),
  expires_at: z.string().describe("ISO 8601 time the run expires under its owner's TTL; a live receipt naming it keeps it longer."),
};

export const RunProduced = z
  .object({
    artifact_id: z.string().describe("The receipt (or artifact) the run produced."),
    span_id: z.string().nullable().describe("The span that produced it: the span naming it, or the parent its traceparent named."),
    linked_by: z
      .array(z.enum(["span", "traceparent"]))
      .describe("How it was linked: a span naming it (`produced_artifact_id` / `cairn.artifact.id`), a W3C traceparent, or both."),
  })
  .meta({ id: "RunProduced", description: "A receipt the run produced, listed once however it was linked." });
export type RunProduced = z.infer<typeof RunProduced>;

export const Run = z
  .object({
    id: RunId,
    name: z.string().describe("What the run is, e.g. nightly-export."),
    owner: z.string().describe("`user:NAME` or `team:NAME`. Only the owner user or members of the owner team can see the run."),
    trace_id: z.string().nullable().describe("The OpenTelemetry trace id (32 lowercase hex digits) of a run made by OTLP ingest (POST /v1/traces), or null."),
    provenance: Provenance,
    created_at: z.string().describe("ISO 8601 creation time."),
    closed_at: z.string().nullable().describe("ISO 8601 time the run was closed (it accepts no more spans), or null."),
    ...RUN_TOTALS,
    spans: z.array(Span).describe("Spans ordered by start time: the first `spans_limit` (default 1,000); `spans_next_cursor` reads on."),
    spans_next_cursor: z.string().nullable().describe("Pass as `spans_cursor` to run_read for the next spans; null when `spans` holds the last of them."),
    produced: z.array(RunProduced).describe("Receipts the run produced, each once, oldest link first."),
    traced_artifacts: z
      .array(
        z.object({
          artifact_id: z.string().describe("The receipt (or artifact) that named this run's trace."),
          parent_span_id: z.string().describe("The span its traceparent named as parent: the span that produced it."),
        }),
      )
      .describe("Artifacts of the run's owner sent with a W3C traceparent of this run's trace (POST /v1/receipts header, MCP _meta), oldest first."),
  })
  .meta({ id: "Run", description: "A run: an owner, a name and its spans. Runs have no share links." });
export type Run = z.infer<typeof Run>;

export const RunCreateInput = z
  .strictObject({
    name: titleText(LIMITS.title, "What the run is, e.g. nightly-export. One line."),
    owner: OwnerRef.optional().describe("Who owns the run: `user:NAME` or `team:NAME`. Defaults to the caller. A run records only artifacts of its own owner."),
  })
  .meta({ id: "RunCreateInput", description: "A new run." });

export const RunRef = z.strictObject({ run_id: RunId });

export const RUN_SPAN_PAGE = { default: 1_000, max: RUN_LIMITS.spansPerRun } as const;

export const RunReadInput = z
  .strictObject({
    run_id: RunId,
    spans_cursor: storableString().max(LIMITS.cursor).optional().describe("`spans_next_cursor` from a previous read: the spans after those."),
    spans_limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(RUN_SPAN_PAGE.max)
      .optional()
      .describe(`Spans to return, 1-${RUN_SPAN_PAGE.max}; default ${RUN_SPAN_PAGE.default}.`),
  })
  .meta({ id: "RunReadInput", description: "Which run to read, and which of its spans." });

export const RunDeleted = z
  .object({
    id: RunId,
    deleted: z.literal(true).describe("The run, its spans, its produced links and its trace links are gone; its receipts stay."),
    receipts_kept: z.number().int().describe("Receipts it had produced: they stay, no longer naming the run."),
  })
  .meta({ id: "RunDeleted", description: "What deleting a run removed." });

export const RunAppendSpansInput = z
  .strictObject({
    run_id: RunId,
    spans: z
      .array(SpanInput)
      .min(1)
      .max(RUN_LIMITS.spansPerAppend)
      .describe(`Spans to append, 1-${RUN_LIMITS.spansPerAppend} per call. Re-sending an identical span is a no-op, so a retry is safe.`),
  })
  .meta({ id: "RunAppendSpansInput", description: "A batch of spans for an open run; all are stored or none." });

export const RunAppendSpansOutput = z
  .object({
    run_id: RunId,
    appended: z.number().int().describe("Spans stored by this call."),
    unchanged: z.number().int().describe("Spans identical to ones already stored (a retried batch)."),
    span_count: z.number().int().describe("Spans in the run after this call."),
  })
  .meta({ id: "RunSpansAppended", description: "What an append stored." });

export const RunSummary = z
  .object({
    id: RunId,
    name: z.string().describe("What the run is."),
    owner: z.string().describe("`user:NAME` or `team:NAME`."),
    trace_id: z.string().nullable().describe("The OpenTelemetry trace id of a run made by OTLP ingest, or null."),
    created_at: z.string().describe("ISO 8601 creation time."),
    closed_at: z.string().nullable().describe("ISO 8601 time the run was closed (it accepts no more spans), or null."),
    ...RUN_TOTALS,
  })
  .meta({ id: "RunSummary", description: "A run as a list shows it: its state and totals, no spans." });
export type RunSummary = z.infer<typeof RunSummary>;

/** A yes/no filter: a JSON boolean, or `true`/`false` as a query string or command line writes it. */
const BooleanFlag = z.union([z.boolean(), z.enum(["true", "false"])], { error: "must be true or false" });

export const RunListInput = z
  .strictObject({
    q: queryText(LIMITS.query, "Only runs whose name contains these characters (case-insensitive), or whose trace id is this one.").optional(),
    owner: OwnerRef.optional().describe("Only this owner's runs (yourself or a team you belong to). Default: yours and your teams'."),
    agent: storableString()
      .overwrite((s) => s.trim())
      .min(1)
      .max(LIMITS.title)
      .optional()
      .describe("Only runs of this agent: the name of the agent token that sent them, or the run's name (a trace's `gen_ai.agent.name`). Exact."),
    model: storableString()
      .overwrite((s) => s.trim())
      .min(1)
      .max(LIMITS.title)
      .optional()
      .describe("Only runs that called this model (`gen_ai.request.model` / `gen_ai.response.model`). Exact."),
    status: z.enum(RUN_STATES).optional().describe("Only `open` or only `ended` runs."),
    error: BooleanFlag.optional().describe("`true`: only runs with a span in error; `false`: only runs without one."),
    conversation: storableString().max(LIMITS.title).optional().describe("Only the runs of this conversation (`gen_ai.conversation.id`, else `session.id`)."),
    since: SearchInstant("Only runs started at or after this."),
    before: SearchInstant("Only runs started before this."),
    ...PAGE_FIELDS,
  })
  .meta({ id: "RunListInput", description: "Which runs to list." });

export const RunList = z
  .object({
    items: z.array(RunSummary).describe("Runs, newest first."),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
  })
  .meta({ id: "RunList", description: "A page of runs." });
