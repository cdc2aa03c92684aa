import { IdempotencyKey } from "../receipt/idempotency.js";
import type { RequestOptions } from "../context.js";

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
} as const satisfies Record<string, { option: keyof RequestOptions; schema: unknown; description: string }>;

export type OperationHeader = keyof typeof OPERATION_HEADERS;
