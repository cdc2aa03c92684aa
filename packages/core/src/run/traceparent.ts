/** The two ids of a W3C `traceparent` that link a receipt to its trace's run (SPEC §21). */
export interface Traceparent {
  trace_id: string;
  parent_span_id: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * A traceparent per W3C Trace Context (level 1): lowercase hex, version `ff` invalid,
 * all-zero ids invalid, version 00 exactly 55 characters (later versions may append
 * fields). Anything else is null: a receiver ignores an invalid traceparent, it does not
 * fail the request over it.
 */
export function parseTraceparent(header: string | undefined): Traceparent | null {
  if (header === undefined) return null;
  const value = header.trim();
  const m = TRACEPARENT.exec(value);
  if (!m) return null;
  const [, version, traceId, spanId, , rest] = m as unknown as [string, string, string, string, string, string | undefined];
  if (version === "ff" || (version === "00" && rest !== undefined)) return null;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return null;
  return { trace_id: traceId, parent_span_id: spanId };
}
