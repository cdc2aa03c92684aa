import { LIMITS } from "../limits.js";

/** Bounds of OTLP ingest (SPEC §21, §31); each refusal names its limit. */
export const OTLP_LIMITS = {
  /** Bytes of one request after decompression; a gzip body is inflated only up to this. */
  requestBytes: 4 * 1024 * 1024,
  /** Spans in one ExportTraceServiceRequest. */
  spansPerRequest: 10_000,
  /** Attributes kept per span or resource (OpenTelemetry's default attribute count limit); more are dropped and counted. */
  attributes: 128,
  /** Characters of an attribute key; a longer key is dropped and counted. */
  attributeKey: 256,
  /** Characters of a string attribute value; a longer one is cut, ending in "…", and counted. */
  attributeValue: 16_384,
  /** Nesting of array and key-value list values; deeper values are kept as null. */
  depth: 8,
  /**
   * Characters of text one request stores (span names, status messages, attribute keys and
   * values, each resource's attributes counted once): the secret scanner's per-request
   * bound. Spans past it are refused, in request order, and counted in partialSuccess (ADR 0043).
   */
  requestText: LIMITS.scanChars,
} as const;
