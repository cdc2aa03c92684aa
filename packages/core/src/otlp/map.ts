import { setImmediate as nextTurn } from "node:timers/promises";
import { isoOfStoredInstant, isStoredInstant } from "../dates.js";
import { OwnerRef } from "../identity/names.js";
import { LIMITS } from "../limits.js";
import type { SpanStatus } from "../run/schemas.js";
import type { NormalizedSpan } from "../run/span-checks.js";
import { cutWithEllipsis, storableCopy } from "../text.js";
import type { ExportRequest } from "./decode.js";
import { OTLP_LIMITS } from "./limits.js";

/** The span attribute that names the artifact a span produced (SPEC §21). */
export const ARTIFACT_ATTRIBUTE = "cairn.artifact.id";
/** A resource attribute naming the owner of the runs its spans make (`team:NAME`); default: the caller. */
export const OWNER_ATTRIBUTE = "cairn.owner";

/**
 * An OTLP `bytesValue`: stored as base64 (ADR 0035), scanned for secrets as the text its
 * bytes spell (UTF-8), so the base64 of a token is caught like the token.
 */
export class BytesValue {
  constructor(
    readonly base64: string,
    readonly text: string,
  ) {}
  toJSON(): string {
    return this.base64;
  }
}

/** One resource of the request: its attributes as JSON, stored once however many spans name it (SPEC §31). */
export interface MappedResource {
  attributes: Obj;
  /** The owner it asks for (`cairn.owner`), if any; checked by ingest against the caller. */
  owner: string | undefined;
  /** Why `cairn.owner` is not an owner at all (the rule of every owner field), or null. */
  ownerInvalid: string | null;
}

/** One OTLP span, mapped to Cairn's span, with the trace it belongs to and its resource (an index into `resources`). */
export interface TraceSpan {
  trace_id: string;
  resource: number;
  /** The span; its `resource` is left empty: the resource is stored once, apart. */
  span: NormalizedSpan;
}

/** What the mapping kept, and what it refused or changed, for partialSuccess. */
export interface MappedRequest {
  resources: MappedResource[];
  spans: TraceSpan[];
  /** Spans refused, by reason. */
  rejected: Map<string, number>;
  /** Values cut or dropped at the bounds, by what happened. */
  trimmed: Map<string, number>;
}

type Obj = Record<string, unknown>;
/** Sets an own property, whatever its name: `__proto__` is an attribute key like any other. */
export const setOwn = (o: Obj, key: string, value: unknown) => {
  // Only `__proto__` is a setter on a plain object; defining every key would put the object in dictionary mode.
  if (key === "__proto__") Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
};
const asObj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** Counts one more (or `n` more) of what was trimmed or refused, by reason. */
export const bump = (m: Map<string, number>, key: string, n = 1) => m.set(key, (m.get(key) ?? 0) + n);

/** Counts the spans of a decoded request, before any is mapped (the per-request bound). */
export function countSpans(request: ExportRequest): number {
  let n = 0;
  for (const rs of asList(request.resourceSpans)) for (const ss of asList(asObj(rs).scopeSpans)) n += asList(asObj(ss).spans).length;
  return n;
}

const hexOf = (v: unknown): string => (v instanceof Uint8Array ? Buffer.from(v).toString("hex") : "");
const isZero = (hex: string) => /^0*$/.test(hex);

/** A time in nanoseconds as protobuf's 64-bit integers print it: at most 20 digits, at least one whole millisecond. */
const NANOS = /^[0-9]{7,20}$/;

/** Nanoseconds since the epoch (a decimal string) as an ISO time to the millisecond, or null when unset or out of range. */
function timeOf(nanos: unknown): string | null {
  if (typeof nanos !== "string" && typeof nanos !== "number") return null;
  let ms: number;
  if (typeof nanos === "string" && NANOS.test(nanos)) {
    // The whole milliseconds of a decimal string are its digits less the last six: no BigInt per time.
    ms = Number(nanos.slice(0, -6));
  } else {
    try {
      ms = Number(BigInt(nanos) / 1_000_000n);
    } catch {
      return null;
    }
  }
  // The range is checked on the number: formatting first would parse the string back to check it.
  return ms > 0 && isStoredInstant(ms) ? isoOfStoredInstant(ms) : null;
}

/** A string as Cairn can store it, cut at `max` characters. */
function text(value: string, max: number, trimmed: Map<string, number>): string {
  const stored = storableCopy(value);
  if (stored.length <= max) return stored;
  bump(trimmed, `attribute values over ${max} characters were cut`);
  return cutWithEllipsis(stored, max);
}

/**
 * An OTLP AnyValue as JSON: strings, booleans and doubles as themselves, 64-bit integers
 * as numbers when exact (else their decimal string), bytes as base64, arrays as lists and
 * key-value lists as objects. Non-finite doubles, which JSON cannot hold, become strings.
 */
function jsonOf(value: unknown, depth: number, trimmed: Map<string, number>): unknown {
  const v = asObj(value);
  if ("stringValue" in v) return text(String(v.stringValue), OTLP_LIMITS.attributeValue, trimmed);
  if ("boolValue" in v) return Boolean(v.boolValue);
  if ("intValue" in v) {
    const n = Number(v.intValue);
    return Number.isSafeInteger(n) ? n : String(v.intValue);
  }
  if ("doubleValue" in v) {
    const d = Number(v.doubleValue);
    return Number.isFinite(d) ? d : String(d);
  }
  if ("bytesValue" in v) {
    if (!(v.bytesValue instanceof Uint8Array)) return "";
    const bytes = Buffer.from(v.bytesValue);
    return new BytesValue(bytes.toString("base64"), storableCopy(bytes.toString("utf8")));
  }
  if (depth >= OTLP_LIMITS.depth && ("arrayValue" in v || "kvlistValue" in v)) {
    bump(trimmed, `values nested deeper than ${OTLP_LIMITS.depth} levels were dropped`);
    return null;
  }
  if ("arrayValue" in v) return asList(asObj(v.arrayValue).values).map((item) => jsonOf(item, depth + 1, trimmed));
  if ("kvlistValue" in v) return attributesOf(asObj(v.kvlistValue).values, depth + 1, trimmed);
  return null;
}

/** KeyValue list → object. A repeated key keeps its last value; past the count limit keys are dropped and counted. */
function attributesOf(list: unknown, depth: number, trimmed: Map<string, number>): Obj {
  const out: Obj = {};
  let kept = 0;
  for (const kv of asList(list)) {
    const { key, value } = asObj(kv);
    if (typeof key !== "string" || key === "") continue;
    if (key.length > OTLP_LIMITS.attributeKey) {
      bump(trimmed, `attribute keys over ${OTLP_LIMITS.attributeKey} characters were dropped`);
      continue;
    }
    const name = storableCopy(key);
    if (!Object.hasOwn(out, name)) {
      if (kept >= OTLP_LIMITS.attributes) {
        bump(trimmed, `attributes past ${OTLP_LIMITS.attributes} per span or resource were dropped`);
        continue;
      }
      kept++;
    }
    setOwn(out, name, jsonOf(value, depth, trimmed));
  }
  return out;
}

const STATUS_CODES: Record<number, SpanStatus["code"]> = { 0: "unset", 1: "ok", 2: "error" };

function statusOf(value: unknown, trimmed: Map<string, number>): SpanStatus {
  const s = asObj(value);
  const message = typeof s.message === "string" && s.message !== "" ? text(s.message, LIMITS.text, trimmed) : null;
  return { code: STATUS_CODES[Number(s.code ?? 0)] ?? "unset", message };
}

/** A span name as a run's one-line title: whitespace runs folded, at most LIMITS.title characters. */
function oneLine(value: string): string {
  const line = storableCopy(value).replace(/\s+/g, " ").trim();
  return line.length > LIMITS.title ? cutWithEllipsis(line, LIMITS.title) : line;
}

const MAP_TURN = 1_000;

/**
 * Maps every span of the request (SPEC §21): ids as lowercase hex, times to the
 * millisecond, status and attributes as JSON, and each resource's attributes once. A span
 * OTLP itself calls malformed (no valid ids, no start, an end before its start) is
 * refused; the others are kept, their values bounded.
 */
export async function mapExportRequest(request: ExportRequest): Promise<MappedRequest> {
  let mappedSoFar = 0;
  const rejected = new Map<string, number>();
  const trimmed = new Map<string, number>();
  const spans: TraceSpan[] = [];
  const resources: MappedResource[] = [];
  for (const rs of asList(request.resourceSpans)) {
    const resourceSpans = asObj(rs);
    const attributes = attributesOf(asObj(resourceSpans.resource).attributes, 0, trimmed);
    const named = attributes[OWNER_ATTRIBUTE];
    const owner = named === undefined ? undefined : named instanceof BytesValue ? named.text : String(named);
    const ownerInvalid =
      owner === undefined || OwnerRef.safeParse(owner).success
        ? null
        : `${OWNER_ATTRIBUTE} must be user:NAME or team:NAME (lowercase letters, digits, '.', '_', '-')`;
    const resource = resources.push({ attributes, owner, ownerInvalid }) - 1;
    for (const ss of asList(resourceSpans.scopeSpans)) {
      for (const raw of asList(asObj(ss).spans)) {
        // Other requests get the event loop every MAP_TURN spans.
        if (++mappedSoFar % MAP_TURN === 0) await nextTurn();
        const s = asObj(raw);
        const traceId = hexOf(s.traceId);
        const spanId = hexOf(s.spanId);
        const parent = hexOf(s.parentSpanId);
        const start = timeOf(s.startTimeUnixNano);
        const end = timeOf(s.endTimeUnixNano);
        const refuse = (reason: string) => bump(rejected, reason);
        if (traceId.length !== 32 || isZero(traceId)) refuse("traceId is not 16 bytes, or is all zero");
        else if (spanId.length !== 16 || isZero(spanId)) refuse("spanId is not 8 bytes, or is all zero");
        else if (parent !== "" && parent.length !== 16) refuse("parentSpanId is not 8 bytes");
        else if (parent === spanId) refuse("parentSpanId equals spanId");
        else if (start === null) refuse("startTimeUnixNano is missing or out of range");
        else if (end !== null && end < start) refuse("endTimeUnixNano is before startTimeUnixNano");
        else {
          const attributes = attributesOf(s.attributes, 0, trimmed);
          const name = oneLine(typeof s.name === "string" ? s.name : "") || "(unnamed span)";
          const artifact = attributes[ARTIFACT_ATTRIBUTE];
          spans.push({
            trace_id: traceId,
            resource,
            span: {
              span_id: spanId,
              parent_span_id: parent === "" || isZero(parent) ? null : parent,
              name,
              start_time: start,
              end_time: end,
              attributes,
              produced_artifact_id: typeof artifact === "string" && artifact.length <= 64 ? artifact : null,
              status: statusOf(s.status, trimmed),
              resource: {},
            },
          });
        }
      }
    }
  }
  return { resources, spans, rejected, trimmed };
}

/**
 * The run's name (SPEC §21): the root span's `gen_ai.agent.name`, else its resource's
 * `service.name`, else the root span's name. Without the root (it comes in a later
 * request), the first span's `service.name` or name stands until the root arrives.
 * `resourceOf` gives a span's resource attributes.
 */
export function runNameOf(
  spans: readonly NormalizedSpan[],
  resourceOf: (s: NormalizedSpan) => Readonly<Record<string, unknown>> = (s) => s.resource,
): { name: string; fromRoot: boolean } {
  const root = spans.find((s) => s.parent_span_id === null);
  const pick = (s: NormalizedSpan, useAgent: boolean) => {
    const agent = s.attributes["gen_ai.agent.name"];
    const service = resourceOf(s)["service.name"];
    if (useAgent && typeof agent === "string" && agent.trim() !== "") return oneLine(agent);
    if (typeof service === "string" && service.trim() !== "") return oneLine(service);
    return s.name;
  };
  if (root) return { name: pick(root, true), fromRoot: true };
  const first = spans[0];
  return { name: first ? pick(first, false) : "(trace)", fromRoot: false };
}
