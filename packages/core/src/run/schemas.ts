import { z } from "zod";
import { Provenance } from "../artifact/schemas.js";
import { OwnerRef } from "../identity/names.js";
import { LIMITS } from "../limits.js";
import { calendarError, isCalendarDateTime, isInStoredRange } from "../dates.js";
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
  .describe(
    `Key/value attributes as in OpenTelemetry: each value a string, number, boolean or a list of those. At most ${RUN_LIMITS.attributes} keys.`,
  );

export const SpanInput = z
  .strictObject({
    span_id: SpanId,
    parent_span_id: SpanId.nullable()
      .optional()
      .describe("The parent span's id, or null/omitted for a root span. The parent may arrive in a later append."),
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

export const Run = z
  .object({
    id: RunId,
    name: z.string().describe("What the run is, e.g. nightly-export."),
    owner: z.string().describe("`user:NAME` or `team:NAME`. Only the owner user or members of the owner team can see the run."),
    status: z.enum(["open", "closed"]).describe("`open` accepts spans; `closed` does not."),
    trace_id: z
      .string()
      .nullable()
      .describe("The OpenTelemetry trace id (32 lowercase hex digits) of a run made by OTLP ingest (POST /v1/traces), or null."),
    provenance: Provenance,
    created_at: z.string().describe("ISO 8601 creation time."),
    closed_at: z.string().nullable().describe("ISO 8601 time the run was closed, or null while open."),
    spans: z.array(Span).describe("Every span appended so far, ordered by start time."),
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
    owner: OwnerRef.optional().describe(
      "Who owns the run: `user:NAME` or `team:NAME`. Defaults to the caller. A run records only artifacts of its own owner.",
    ),
  })
  .meta({ id: "RunCreateInput", description: "A new run." });

export const RunRef = z.strictObject({ run_id: RunId });

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
    status: z.enum(["open", "closed"]).describe("`open` accepts spans; `closed` does not."),
    trace_id: z.string().nullable().describe("The OpenTelemetry trace id of a run made by OTLP ingest, or null."),
    span_count: z.number().int().describe("Spans stored in the run."),
    error_count: z.number().int().describe("Spans whose OpenTelemetry status is `error`."),
    created_at: z.string().describe("ISO 8601 creation time."),
    closed_at: z.string().nullable().describe("ISO 8601 time the run was closed, or null while open."),
  })
  .meta({ id: "RunSummary", description: "A run as a list shows it: no spans, their counts." });
export type RunSummary = z.infer<typeof RunSummary>;

export const RunListInput = z
  .strictObject({
    q: queryText(LIMITS.query, "Only runs whose name contains these characters (case-insensitive), or whose trace id is this one.").optional(),
    owner: OwnerRef.optional().describe("Only this owner's runs (yourself or a team you belong to). Default: yours and your teams'."),
    ...PAGE_FIELDS,
  })
  .meta({ id: "RunListInput", description: "Which runs to list." });

export const RunList = z
  .object({
    items: z.array(RunSummary).describe("Runs, newest first."),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
  })
  .meta({ id: "RunList", description: "A page of runs." });
