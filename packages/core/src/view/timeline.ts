import type { Run, RunSummary, Span, SpanStatus } from "../run/schemas.js";
import { cutWithEllipsis } from "../text.js";
import { ageOf } from "./summary.js";

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
  conversation_id: string | null;
  created_at: string;
  age: string;
  /** "3 spans · 1 error". */
  counts: string;
  has_errors: boolean;
  totals: RunTotalsView;
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
    conversation_id: run.conversation_id,
    created_at: run.created_at,
    age: ageOf(run.created_at, now),
    counts: `${spans}${errors}`,
    has_errors: run.error_count > 0,
    totals: runTotalsOf(run),
  };
}

/** Spans read per page of a run page, in start order; the rest are a "Next spans" link away. */
export const RUN_PAGE_SPANS = 500;
/** Past this depth, or past this many spans on the page, a span's children start collapsed. */
export const RUN_TREE_OPEN_DEPTH = 3;
export const RUN_TREE_OPEN_SPANS = 50;

/** One span in the tree: its children nested; `open` says whether its children show at first. */
export interface SpanTreeNode {
  span: TimelineSpanView;
  /** Depth under the page's roots (a span whose parent is on another page is a root here). */
  depth: number;
  open: boolean;
  /** Spans under it on this page. */
  descendants: number;
  /** True when its parent is in the run but on another page. */
  continued: boolean;
  children: SpanTreeNode[];
}

/** State and totals as the page and list say them (SPEC §28). */
export interface RunTotalsView {
  /** "Ended" or "Open". */
  state: string;
  error: boolean;
  /** "1 error" or null. */
  errors: string | null;
  /** ["4 spans", "2.5 s", "300 input · 30 output tokens", "gpt-4o, gpt-4o-mini"]: what is known. */
  facts: string[];
  /** The same, labelled, for the run page: Spans, Duration, Tokens, Models. */
  labelled: Array<{ label: string; value: string }>;
}

export function runTotalsOf(run: RunSummary | Run): RunTotalsView {
  const facts = [`${run.span_count} span${run.span_count === 1 ? "" : "s"}`];
  if (run.duration_ms !== null) facts.push(durationOf(run.duration_ms));
  if (run.usage.input_tokens > 0 || run.usage.output_tokens > 0) {
    facts.push(`${run.usage.input_tokens.toLocaleString("en-US")} input · ${run.usage.output_tokens.toLocaleString("en-US")} output tokens`);
  }
  if (run.models.length > 0) facts.push(run.models.join(", "));
  const errors = run.error ? `${run.error_count} error${run.error_count === 1 ? "" : "s"}` : null;
  const labelled = [
    { label: "Spans", value: `${run.span_count.toLocaleString("en-US")}${errors ? ` (${errors})` : ""}` },
    { label: "Duration", value: run.duration_ms === null ? "not ended yet" : durationOf(run.duration_ms) },
    ...(run.usage.input_tokens > 0 || run.usage.output_tokens > 0
      ? [{ label: "Tokens", value: `${run.usage.input_tokens.toLocaleString("en-US")} input · ${run.usage.output_tokens.toLocaleString("en-US")} output` }]
      : []),
    ...(run.models.length > 0 ? [{ label: run.models.length === 1 ? "Model" : "Models", value: run.models.join(", ") }] : []),
  ];
  return { state: run.status === "ended" ? "Ended" : "Open", error: run.error, errors, facts, labelled };
}

/** A receipt the run produced, as the top of its page lists it: once, with how it was linked. */
export interface ProducedView {
  artifact_id: string;
  span_id: string | null;
  /** "span", "traceparent" or "span and traceparent". */
  linked_by: string;
}

/** Another run of the same conversation, linked from the page. */
export interface SiblingRunView {
  id: string;
  name: string;
  state: string;
  error: boolean;
  created_at: string;
  age: string;
}

export interface RunPageView {
  timeline: RunTimelineView;
  totals: RunTotalsView;
  conversation_id: string | null;
  produced: ProducedView[];
  /** The receipts each span produced (from `produced`: each receipt under one span only). */
  produced_by_span: ReadonlyMap<string, string[]>;
  siblings: SiblingRunView[];
  /** This page's spans as a forest, in tree order (children by start time). */
  tree: SpanTreeNode[];
  /** Position of the page's first span in the run's start order (0-based), spans on the page, spans in the run. */
  at: number;
  shown: number;
  total: number;
  /** `spans_next_cursor` of the read: where the next page starts, or null on the last. */
  next_cursor: string | null;
}

/**
 * The run page (SPEC §28): totals and produced receipts at the top, spans as a tree. The
 * run is read a page of RUN_PAGE_SPANS spans at a time in start order (a parent starts
 * before its children, so subtrees stay together; a span whose parent is on an earlier
 * page starts a tree of its own, marked continued). Children start collapsed past
 * RUN_TREE_OPEN_DEPTH or past the page's first RUN_TREE_OPEN_SPANS spans.
 */
export function runPageOf(run: Run, now: Date, options: { at?: number; siblings?: readonly RunSummary[] } = {}): RunPageView {
  const timeline = runTimelineOf(run, now);
  const byId = new Map(timeline.spans.map((s) => [s.span_id, s]));
  const parentOf = new Map(run.spans.map((s) => [s.span_id, s.parent_span_id]));
  const kids = new Map<string, TimelineSpanView[]>();
  const roots: TimelineSpanView[] = [];
  for (const s of timeline.spans) {
    const parent = parentOf.get(s.span_id) ?? null;
    if (parent === null || parent === s.span_id || !byId.has(parent)) {
      roots.push(s);
      continue;
    }
    const list = kids.get(parent);
    if (list) list.push(s);
    else kids.set(parent, [s]);
  }
  // Depth-first, iteratively (a deep chain must not blow the stack). Spans on a cycle of
  // parents are reached from no root: each unreached one then starts a tree.
  const reached = new Set<string>();
  const tree: SpanTreeNode[] = [];
  let index = 0;
  const grow = (start: TimelineSpanView) => {
    const stack: { span: TimelineSpanView; depth: number; into: SpanTreeNode[] }[] = [{ span: start, depth: 0, into: tree }];
    const made: SpanTreeNode[] = [];
    while (stack.length > 0) {
      const top = stack.pop() as { span: TimelineSpanView; depth: number; into: SpanTreeNode[] };
      if (reached.has(top.span.span_id)) continue;
      reached.add(top.span.span_id);
      const parent = parentOf.get(top.span.span_id) ?? null;
      const node: SpanTreeNode = {
        span: top.span,
        depth: top.depth,
        open: top.depth < RUN_TREE_OPEN_DEPTH && index < RUN_TREE_OPEN_SPANS,
        descendants: 0,
        continued: top.depth === 0 && parent !== null && !byId.has(parent),
        children: [],
      };
      index++;
      top.into.push(node);
      made.push(node);
      const children = kids.get(top.span.span_id) ?? [];
      for (let i = children.length - 1; i >= 0; i--) stack.push({ span: children[i] as TimelineSpanView, depth: top.depth + 1, into: node.children });
    }
    // Made in depth-first order: counting from the end, every child is counted before its parent.
    for (let i = made.length - 1; i >= 0; i--) {
      const node = made[i] as SpanTreeNode;
      node.descendants = node.children.reduce((n, c) => n + 1 + c.descendants, 0);
    }
  };
  for (const r of roots) grow(r);
  for (const s of timeline.spans) if (!reached.has(s.span_id)) grow(s);

  const producedBySpan = new Map<string, string[]>();
  for (const p of run.produced) {
    if (p.span_id === null || !byId.has(p.span_id)) continue;
    const list = producedBySpan.get(p.span_id);
    if (list) list.push(p.artifact_id);
    else producedBySpan.set(p.span_id, [p.artifact_id]);
  }
  const at = Math.max(0, Math.floor(options.at ?? 0));
  return {
    timeline,
    totals: runTotalsOf(run),
    conversation_id: run.conversation_id,
    produced: run.produced.map((p) => ({
      artifact_id: p.artifact_id,
      span_id: p.span_id,
      linked_by: p.linked_by.length > 1 ? "span and traceparent" : (p.linked_by[0] ?? "span"),
    })),
    produced_by_span: producedBySpan,
    siblings: (options.siblings ?? [])
      .filter((r) => r.id !== run.id)
      .map((r) => ({
        id: r.id,
        name: r.name,
        state: r.status === "ended" ? "Ended" : "Open",
        error: r.error,
        created_at: r.created_at,
        age: ageOf(r.created_at, now),
      })),
    tree,
    at,
    shown: run.spans.length,
    total: Math.max(run.span_count, at + run.spans.length),
    next_cursor: run.spans_next_cursor,
  };
}
