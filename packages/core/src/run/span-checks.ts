import type { Issue } from "../errors.js";
import { stableJson } from "../json.js";
import { RUN_LIMITS, type SpanInput, type SpanStatus } from "./schemas.js";

/**
 * Rules across fields and spans of one batch that a field schema cannot express. Pure:
 * the stored state (closed run, existing spans, artifacts) is checked by the verb.
 */
export function spanBatchIssues(spans: readonly SpanInput[]): Issue[] {
  const issues: Issue[] = [];
  const firstIndex = new Map<string, number>();
  spans.forEach((span, i) => {
    const at = (field: string) => `spans.${i}.${field}`;
    const seen = firstIndex.get(span.span_id);
    if (seen === undefined) firstIndex.set(span.span_id, i);
    else issues.push({ field: at("span_id"), reason: `repeats spans.${seen}.span_id; span ids are unique within a run` });
    if (span.parent_span_id === span.span_id) {
      issues.push({ field: at("parent_span_id"), reason: "must differ from span_id" });
    }
    if (span.end_time !== undefined && Date.parse(span.end_time) < Date.parse(span.start_time)) {
      issues.push({ field: at("end_time"), reason: "must not be before start_time" });
    }
    const keys = Object.keys(span.attributes ?? {}).length;
    if (keys > RUN_LIMITS.attributes) {
      issues.push({ field: at("attributes"), reason: `has more than ${RUN_LIMITS.attributes} keys`, limit: RUN_LIMITS.attributes });
    }
  });
  return issues;
}

/** A span as stored: times normalised to UTC milliseconds, absent optionals made explicit. */
export interface NormalizedSpan {
  span_id: string;
  parent_span_id: string | null;
  name: string;
  start_time: string;
  end_time: string | null;
  attributes: Record<string, unknown>;
  produced_artifact_id: string | null;
  status: SpanStatus | null;
  resource: Record<string, unknown>;
}

export function normalizeSpan(span: SpanInput): NormalizedSpan {
  return {
    span_id: span.span_id,
    parent_span_id: span.parent_span_id ?? null,
    name: span.name,
    start_time: new Date(span.start_time).toISOString(),
    end_time: span.end_time === undefined ? null : new Date(span.end_time).toISOString(),
    attributes: span.attributes ?? {},
    produced_artifact_id: span.produced_artifact_id ?? null,
    status: null,
    resource: {},
  };
}

/** Whether a re-sent span is the one already stored (a retry) rather than an attempt to change it. */
export function sameSpan(a: NormalizedSpan, b: NormalizedSpan): boolean {
  return stableJson(a) === stableJson(b);
}
