import type { LogFields, Logger } from "./log.js";

/**
 * Whether a failure is the client going away: it closed the connection before its request
 * body arrived (Node's `aborted` ECONNRESET, a premature close, or the request's signal
 * aborted), or the server cut a body that trickled too slowly (Node answered 408 itself).
 * Not a fault of ours: surfaces log it at info, by code, and count no internal error.
 */
export function isClientAbort(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  const e = err as { code?: unknown; message?: unknown; name?: unknown } | null;
  if (e?.code === "ECONNRESET" && e.message === "aborted") return true;
  return e?.code === "ERR_STREAM_PREMATURE_CLOSE" || e?.code === "ERR_HTTP_REQUEST_TIMEOUT" || e?.name === "AbortError";
}

/** The status an access log records for a request whose client left (nginx's convention); never sent. */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * What an HTTP surface answers for a client that left: one info line (surface, method,
 * path, request id; no stack, no internal error) and an empty 499 nobody receives.
 */
export function clientAbortResponse(log: Logger, fields: LogFields): Response {
  log.info("client_aborted", fields);
  return new Response(null, { status: CLIENT_CLOSED_REQUEST });
}
