import { setImmediate as nextTurn } from "node:timers/promises";
import { createGunzip } from "node:zlib";
import type protobuf from "protobufjs";
import { CairnError, validationFailed } from "../errors.js";
import { ROOT_FIELD } from "../validation.js";
import { OTLP_LIMITS } from "./limits.js";
import { otlpTypes } from "./proto.js";

/** The two OTLP/HTTP encodings; a response is sent in the request's. */
export type OtlpEncoding = "protobuf" | "json";

export const OTLP_CONTENT_TYPES: { readonly [E in OtlpEncoding]: string } = {
  protobuf: "application/x-protobuf",
  json: "application/json",
};

/** The encoding a Content-Type names (parameters such as charset ignored), or null. */
export function otlpEncodingOf(contentType: string | undefined): OtlpEncoding | null {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  if (type === "application/x-protobuf" || type === "application/protobuf") return "protobuf";
  if (type === "application/json") return "json";
  return null;
}

export const otlpTooLarge = () =>
  new CairnError("payload_too_large", `The request is larger than ${OTLP_LIMITS.requestBytes} bytes after decompression.`, {
    issues: [{ field: ROOT_FIELD, reason: "is larger than the OTLP request limit after decompression", limit: OTLP_LIMITS.requestBytes }],
  });

export const otlpUnsupportedType = (got: string | undefined) =>
  new CairnError(
    "unsupported_media_type",
    `POST /v1/traces takes application/x-protobuf or application/json, not ${got ? JSON.stringify(got.slice(0, 100)) : "a body without a Content-Type"}.`,
    { issues: [{ field: ROOT_FIELD, reason: "must be sent as application/x-protobuf or application/json" }] },
  );

const unsupportedEncoding = (got: string) =>
  new CairnError("unsupported_media_type", `Content-Encoding ${JSON.stringify(got.slice(0, 100))} is not supported; send gzip or no encoding.`, {
    issues: [{ field: ROOT_FIELD, reason: "must be gzip-encoded or not encoded" }],
  });

const undecodable = (what: string) => validationFailed([{ field: ROOT_FIELD, reason: what }], `The request body is not an ExportTraceServiceRequest: ${what}.`);

/**
 * The body as sent, decompressed when it says gzip. Inflation streams and stops at the
 * limit: a bomb of a few KiB is refused after at most OTLP_LIMITS.requestBytes of output,
 * never inflated whole in memory.
 */
export async function decompressedBody(body: Uint8Array, contentEncoding: string | undefined): Promise<Uint8Array> {
  const encoding = contentEncoding?.trim().toLowerCase() ?? "";
  if (encoding === "" || encoding === "identity") {
    if (body.byteLength > OTLP_LIMITS.requestBytes) throw otlpTooLarge();
    return body;
  }
  if (encoding !== "gzip" && encoding !== "x-gzip") throw unsupportedEncoding(encoding);
  return gunzipBounded(body, OTLP_LIMITS.requestBytes);
}

function gunzipBounded(input: Uint8Array, cap: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const gunzip = createGunzip({ chunkSize: 64 * 1024 });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    gunzip.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > cap) {
        gunzip.destroy();
        chunks.length = 0;
        settle(() => reject(otlpTooLarge()));
        return;
      }
      chunks.push(chunk);
    });
    gunzip.on("end", () => settle(() => resolve(Buffer.concat(chunks))));
    gunzip.on("error", () => settle(() => reject(undecodable("is not valid gzip"))));
    gunzip.end(input);
  });
}

/** A plain object of the ExportTraceServiceRequest message: ids as bytes, 64-bit integers as decimal strings. */
export type ExportRequest = Record<string, unknown>;

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/**
 * OTLP/JSON writes trace and span ids as hex where protobuf's JSON mapping would use
 * base64; they are turned into bytes before protobufjs reads the object. An id that is
 * not hex becomes empty, so its span is refused by the mapping, not the whole request.
 */
function hexIdsToBytes(json: unknown): unknown {
  if (typeof json !== "object" || json === null) return json;
  const resourceSpans = (json as { resourceSpans?: unknown }).resourceSpans;
  if (!Array.isArray(resourceSpans)) return json;
  const bytes = (v: unknown) => (typeof v === "string" ? Buffer.from(HEX.test(v) ? v : "", "hex") : v);
  for (const rs of resourceSpans) {
    const scopeSpans = (rs as { scopeSpans?: unknown } | null)?.scopeSpans;
    if (!Array.isArray(scopeSpans)) continue;
    for (const ss of scopeSpans) {
      const spans = (ss as { spans?: unknown } | null)?.spans;
      if (!Array.isArray(spans)) continue;
      for (const span of spans) {
        if (typeof span !== "object" || span === null) continue;
        const s = span as Record<string, unknown>;
        for (const key of ["traceId", "spanId", "parentSpanId"]) if (key in s) s[key] = bytes(s[key]);
        if (Array.isArray(s.links)) {
          for (const link of s.links as Array<Record<string, unknown> | null>) {
            if (typeof link !== "object" || link === null) continue;
            for (const key of ["traceId", "spanId"]) if (key in link) link[key] = bytes(link[key]);
          }
        }
      }
    }
  }
  return json;
}

const TO_OBJECT = { longs: String, enums: Number, defaults: false, arrays: true } as const;

/** Decodes an ExportTraceServiceRequest from either encoding; a body that is not one is 400 (validation_failed). */
export async function decodeExportRequest(bytes: Uint8Array, encoding: OtlpEncoding): Promise<ExportRequest> {
  const { request } = otlpTypes();
  if (encoding === "protobuf") {
    let message: protobuf.Message;
    try {
      message = request.decode(bytes);
    } catch {
      throw undecodable("is not valid protobuf");
    }
    // Decoding a large request is two long steps; other requests run between them.
    await nextTurn();
    return request.toObject(message, TO_OBJECT);
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8").decode(bytes));
  } catch {
    throw undecodable("is not valid JSON");
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw undecodable("is not a JSON object");
  try {
    return request.toObject(request.fromObject(hexIdsToBytes(json) as Record<string, unknown>), TO_OBJECT);
  } catch (err) {
    // protobufjs names the field: ".opentelemetry.proto.….resourceSpans: array expected".
    const detail = err instanceof Error ? err.message.replace(/^\.(?:[a-z0-9_]+\.)+(?:[A-Z]\w*\.)+/, "") : "";
    throw undecodable(detail ? `has a field of the wrong type (${detail.slice(0, 200)})` : "does not match the message");
  }
}

/** Status code of google.rpc.Status for each of our error codes (OTLP/HTTP error bodies). */
const RPC_CODES: Record<string, number> = {
  validation_failed: 3,
  payload_too_large: 8,
  unsupported_media_type: 3,
  rate_limited: 8,
  unauthenticated: 16,
  forbidden: 7,
  unavailable: 14,
  internal: 13,
};

export interface OtlpAnswer {
  contentType: string;
  body: Uint8Array;
}

/** The ExportTraceServiceResponse, with partialSuccess only when spans were refused or there is something to say. */
export function encodeExportResponse(encoding: OtlpEncoding, rejectedSpans: number, message: string): OtlpAnswer {
  const { response } = otlpTypes();
  const value = rejectedSpans > 0 || message !== "" ? { partialSuccess: { rejectedSpans, errorMessage: message } } : {};
  return encodeAs(encoding, response, value);
}

/**
 * A 4xx/5xx body as OTLP/HTTP prescribes: google.rpc.Status in the request's encoding.
 * The JSON one also carries Cairn's error envelope (`error`), which OTLP clients ignore.
 */
export function encodeErrorStatus(encoding: OtlpEncoding, error: CairnError): OtlpAnswer {
  const { status } = otlpTypes();
  const value = { code: RPC_CODES[error.code] ?? 13, message: error.message };
  if (encoding === "json") {
    return { contentType: OTLP_CONTENT_TYPES.json, body: Buffer.from(JSON.stringify({ ...value, error: error.toBody() })) };
  }
  return encodeAs(encoding, status, value);
}

function encodeAs(encoding: OtlpEncoding, type: protobuf.Type, value: Record<string, unknown>): OtlpAnswer {
  const message = type.fromObject(value);
  if (encoding === "protobuf") return { contentType: OTLP_CONTENT_TYPES.protobuf, body: type.encode(message).finish() };
  const json = type.toObject(message, { longs: String, enums: Number, defaults: false });
  return { contentType: OTLP_CONTENT_TYPES.json, body: Buffer.from(JSON.stringify(json)) };
}
