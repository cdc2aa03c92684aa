import { z } from "zod";
import type { RequestOptions } from "../context.js";

/** The key a client sends to retry a write safely; declared with the headers that carry it. */
export const IdempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, "must be 1-255 printable ASCII characters without spaces")
  .describe("A client-chosen key (e.g. a UUID). The same key and input within 24 hours replays the first response.");

/**
 * Request headers an operation may read, by their HTTP name. A surface passes a header to
 * core only for the operations that declare it; REST documents it on their routes.
 */
export const OPERATION_HEADERS = {
  "Idempotency-Key": {
    option: "idempotencyKey",
    schema: IdempotencyKey,
    description:
      "Retry safely: the same key and body within 24 hours replays the first response (status and body); the same key with another body is 422 idempotency_mismatch. Scoped to your user.",
  },
  traceparent: {
    option: "traceparent",
    schema: z.string().max(512).describe("W3C Trace Context traceparent, e.g. 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01."),
    description:
      'W3C Trace Context: links the receipt to your run of this trace id (runs made from OpenTelemetry traces, POST /v1/traces), as if the parent span had produced it; the card then shows "Produced by run". An invalid traceparent is ignored, as the W3C specification asks. On MCP: `_meta.traceparent` of the tool call.',
  },
} as const satisfies Record<string, { option: keyof RequestOptions; schema: unknown; description: string }>;

export type OperationHeader = keyof typeof OPERATION_HEADERS;
