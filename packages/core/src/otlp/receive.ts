import { setImmediate as nextTurn } from "node:timers/promises";
import type { ServiceContext } from "../context.js";
import { CairnError, type CairnErrorCode } from "../errors.js";
import { requirePermission } from "../identity/permissions.js";
import {
  decodeExportRequest,
  decompressedBody,
  encodeErrorStatus,
  encodeExportResponse,
  type OtlpAnswer,
  type OtlpEncoding,
  otlpEncodingOf,
  otlpUnsupportedType,
} from "./decode.js";
import { type IngestResult, ingestTraces } from "./ingest.js";

/** An OTLP/HTTP export as a surface received it: the body as sent (still compressed) and the two headers that say how to read it. */
export interface OtlpRequest {
  body: Uint8Array;
  contentType: string | undefined;
  contentEncoding: string | undefined;
}

/** The answer: `ok` (200) or the error code a surface turns into its status (400, 413, 415, …), and the body in the request's encoding. */
export interface OtlpReply extends OtlpAnswer {
  code: "ok" | CairnErrorCode;
  result?: IngestResult;
}

/** The encoding to answer in: the request's, or JSON when the request's cannot be told. */
const replyEncodingOf = (contentType: string | undefined): OtlpEncoding => otlpEncodingOf(contentType) ?? "json";

/** A refusal in OTLP's shape (google.rpc.Status), in the request's encoding. */
export function otlpFailure(contentType: string | undefined, error: CairnError): OtlpReply {
  return { code: error.code, ...encodeErrorStatus(replyEncodingOf(contentType), error) };
}

/**
 * POST /v1/traces, whole (SPEC §21): the caller may write runs, the body is one of the two
 * encodings, inflated within the bound, decoded by the official messages, then ingested.
 * Input faults come back as a reply; only our own faults throw.
 */
export async function receiveTraces(ctx: ServiceContext, request: OtlpRequest): Promise<OtlpReply> {
  try {
    // A remembered caller is not read again here: the write re-checks its token and teams (ADR 0027, 0063).
    requirePermission(ctx.principal, "runs:write");
    const encoding = otlpEncodingOf(request.contentType);
    if (encoding === null) throw otlpUnsupportedType(request.contentType);
    const bytes = await decompressedBody(request.body, request.contentEncoding);
    const decoded = await decodeExportRequest(bytes, encoding);
    // Decoding is the one long step that cannot be cut; other requests run before the rest.
    await nextTurn();
    const result = await ingestTraces(ctx, decoded);
    return { code: "ok", result, ...encodeExportResponse(encoding, result.rejected, result.message) };
  } catch (err) {
    if (!(err instanceof CairnError) || err.code === "internal") throw err;
    return otlpFailure(request.contentType, err);
  }
}
