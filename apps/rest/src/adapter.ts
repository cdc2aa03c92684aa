import {
  CairnError,
  type CairnErrorCode,
  clientAbortResponse,
  httpStatusOf,
  isClientAbort,
  type Logger,
  logUnavailable,
  type Principal,
  toCairnError,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
} from "@cairn/core";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** REST's status for a code: core's one table (HTTP_STATUS), shared with the web. */
export const statusOf = (code: CairnErrorCode): ContentfulStatusCode => httpStatusOf(code);

/** `clientAddress`: the peer, or the client a trusted proxy named (CAIRN_TRUST_PROXY); absent in-process. */
export type RestEnv = { Variables: { principal: Principal; requestId: string; clientAddress?: string } };

/**
 * A request path as logs may show it: a share link's token and a sign-in link's code are
 * bearer secrets, so `/s/<token>` is written `/s/…` and `/signin/link/<code>`
 * `/signin/link/…`; an email confirmation code likewise (`/notifications/confirm/…`). Only the path, never the query string.
 */
export function loggablePath(path: string): string {
  return path
    .replace(/^\/s\/[^/]*/, "/s/…")
    .replace(/^\/signin\/link\/[^/]*/, "/signin/link/…")
    .replace(/^\/notifications\/confirm\/[^/]*/, "/notifications/confirm/…");
}

/**
 * Sends any thrown value as the shared error envelope. Unknown errors are logged (code,
 * request id, our stack: see core's logger), never echoed; so is an unreachable database.
 */
export function errorResponse(c: Context, err: unknown, log: Logger): Response {
  const requestId = c.get("requestId") as string | undefined;
  // The client left mid-body, or its body trickled past the server's bound (Node answered 408): not our fault.
  if (isClientAbort(err, c.req.raw.signal))
    return clientAbortResponse(log, { surface: "rest", method: c.req.method, path: loggablePath(c.req.path), requestId });
  const cairnError = toCairnError(err);
  if (!(err instanceof CairnError)) log.error({ code: "internal", requestId, surface: "rest", method: c.req.method }, err);
  else if (cairnError.code === "unavailable") logUnavailable(log, { surface: "rest", requestId }, (err as { cause?: unknown }).cause);
  if (cairnError.code === "unavailable") c.header("Retry-After", String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  if (cairnError.code === "unauthenticated") c.header("WWW-Authenticate", 'Bearer realm="cairn"');
  return c.json({ error: cairnError.toBody(requestId) }, statusOf(cairnError.code));
}
