import type { Run, RunSummary, Span, SpanStatus } from "../run/schemas.js";
import { ageOf } from "./summary.js";
import { cutWithEllipsis } from "../text.js";

/** One attribute as a page shows it: the key, the value as text, and whether it is long enough to fold. */
export interface AttributeView {
  key: string;
  /** A string as it is; any other value as JSON. */
  text: string;
  /** Long or multi-line values are folded: `preview` shows, the whole `text` opens on demand. */
  folded: boolean;
  preview: string;
}

/** Values longer than this, or on several lines, are folded on the run page. */
export const ATTRIBUTE_FOLD_AT = 160;

export function attributeViewsOf(attributes: Record<string, unknown>): AttributeView[] {
  return Object.entries(attributes).map(([key, value]) => {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    const folded = text.length > ATTRIBUTE_FOLD_AT || text.includes("\n");
    const firstLine = text.split("\n", 1)[0] ?? "";
    const preview = folded ? cutWithEllipsis(firstLine, ATTRIBUTE_FOLD_AT) : text;
    return { key, text, folded, preview };
  });
}

const STATUS_LABELS: { readonly [C in SpanStatus["code"]]: string } = { unset: "Unset", ok: "OK", error: "Error" };

/** A span's OpenTelemetry status as it reads: null when it has none or it is unset (the default). */
export interface SpanStatusView {
  code: SpanStatus["code"];
  label: string;
  message: string | null;
}

const statusViewOf = (status: SpanStatus | null): SpanStatusView | null =>
  status === null || status.code === "unset" ? null : { code: status.code, label: STATUS_LABELS[status.code], message: status.message };

/** One span placed on its run's timeline: depth under its parent, and where it sits in time. */
export interface TimelineSpanView {
  span_id: string;
  name: string;
  depth: number;
  start_time: string;
  end_time: string | null;
  /** "1.2 s", "3 min 4 s", or "in progress". */
  duration: string;
  /** Start and length as fractions of the run's span of time, 0..1 (a bar on a timeline). */
  offset: number;
  width: number;
  produced_artifact_id: string | null;
  status: SpanStatusView | null;
  attributes: AttributeView[];
  /** Artifacts whose traceparent named this span as parent (SPEC §21). */
  traced_artifact_ids: string[];
}

export interface RunTimelineView {
  id: string;
  name: string;
  owner: string;
  status: Run["status"];
  trace_id: string | null;
  /** Artifacts whose traceparent names a span this run does not (yet) hold. */
  unplaced_artifact_ids: string[];
  /** Attributes of the resource that sent the spans (the first span's), shown once for the run. */
  resource: AttributeView[];
  started_at: string | null;
  /** "4 spans over 3 min 4 s". */
  summary: string;
  spans: TimelineSpanView[];
}

export function durationOf(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Depth from parent links; a parent that never arrived (or a cycle) leaves the span at the root. */
function depths(spans: readonly Span[]): Map<string, number> {
  const parent = new Map(spans.map((s) => [s.span_id, s.parent_span_id]));
  const out = new Map<string, number>();
  for (const s of spans) {
    let depth = 0;
    let p = s.parent_span_id;
    const seen = new Set([s.span_id]);
    while (p !== null && parent.has(p) && !seen.has(p) && depth < 32) {
      seen.add(p);
      depth++;
      p = parent.get(p) ?? null;
    }
    out.set(s.span_id, depth);
  }
  return out;
}

/** The run's spans in start order, each with its depth and its place in time. `now` ends spans still in progress. */
export function runTimelineOf(run: Run, now: Date): RunTimelineView {
  const start = Math.min(...run.spans.map((s) => Date.parse(s.start_time)));
  const ends = run.spans.map((s) => (s.end_time ? Date.parse(s.end_time) : Math.max(now.getTime(), Date.parse(s.start_time))));
  const end = Math.max(...ends);
  const total = Math.max(end - start, 1);
  const depth = depths(run.spans);
  const spans = run.spans.map((s, i) => {
    const from = Date.parse(s.start_time);
    const to = ends[i] ?? from;
    return {
      span_id: s.span_id,
      name: s.name,
      depth: depth.get(s.span_id) ?? 0,
      start_time: s.start_time,
      end_time: s.end_time,
      duration: s.end_time ? durationOf(to - from) : "in progress",
      offset: (from - start) / total,
      width: Math.max((to - from) / total, 0),
      produced_artifact_id: s.produced_artifact_id,
      status: statusViewOf(s.status),
      attributes: attributeViewsOf(s.attributes),
      traced_artifact_ids: run.traced_artifacts.filter((t) => t.parent_span_id === s.span_id).map((t) => t.artifact_id),
    };
  });
  const count = `${spans.length} span${spans.length === 1 ? "" : "s"}`;
  return {
    id: run.id,
    name: run.name,
    owner: run.owner,
    status: run.status,
    trace_id: run.trace_id,
    unplaced_artifact_ids: run.traced_artifacts.filter((t) => !run.spans.some((s) => s.span_id === t.parent_span_id)).map((t) => t.artifact_id),
    resource: attributeViewsOf(run.spans.find((s) => Object.keys(s.resource).length > 0)?.resource ?? {}),
    started_at: run.spans.length > 0 ? new Date(start).toISOString() : null,
    summary: run.spans.length > 0 ? `${count} over ${durationOf(end - start)}` : "No spans yet",
    spans,
  };
}

/** A run as the runs list shows it. */
export interface RunRowView {
  id: string;
  name: string;
  owner: string;
  status: Run["status"];
  trace_id: string | null;
  created_at: string;
  age: string;
  /** "3 spans · 1 error". */
  counts: string;
  has_errors: boolean;
}

export function runRowOf(run: RunSummary, now: Date): RunRowView {
  const spans = `${run.span_count} span${run.span_count === 1 ? "" : "s"}`;
  const errors = run.error_count > 0 ? ` · ${run.error_count} error${run.error_count === 1 ? "" : "s"}` : "";
  return {
    id: run.id,
    name: run.name,
    owner: run.owner,
    status: run.status,
    trace_id: run.trace_id,
    created_at: run.created_at,
    age: ageOf(run.created_at, now),
    counts: `${spans}${errors}`,
    has_errors: run.error_count > 0,
  };
}
