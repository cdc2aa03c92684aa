import { CairnError, type CairnErrorCode, type Principal, toCairnError } from "@cairn/core";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Exhaustive: a new error code does not compile until REST gives it a status. */
export function statusOf(code: CairnErrorCode): ContentfulStatusCode {
  switch (code) {
    case "validation_failed":
    case "unknown_schema":
    case "idempotency_mismatch":
      return 422;
    case "duplicate":
      return 409;
    case "unauthenticated":
      return 401;
    case "forbidden":
      return 403;
    case "not_found":
      return 404;
    case "gone":
      return 410;
    case "payload_too_large":
      return 413;
    case "unsupported_media_type":
      return 415;
    case "unavailable":
      return 503;
    case "internal":
      return 500;
  }
}

export type RestEnv = { Variables: { principal: Principal; requestId: string } };

/** Sends any thrown value as the shared error envelope; unknown errors are logged, never echoed. */
export function errorResponse(c: Context, err: unknown): Response {
  const cairnError = toCairnError(err);
  if (!(err instanceof CairnError)) {
    const requestId = c.get("requestId") ?? "-";
    console.error(`cairn rest: internal error on ${c.req.method} ${c.req.path} (request ${requestId}):`, err);
  }
  if (cairnError.code === "unauthenticated") c.header("WWW-Authenticate", 'Bearer realm="cairn"');
  return c.json({ error: cairnError.toBody() }, statusOf(cairnError.code));
}
