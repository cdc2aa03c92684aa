import { CairnError, type CairnErrorBody, type CairnErrorCode, type Logger, logUnavailable, toCairnError } from "@cairn/core";
import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/server";
import { ERROR_META_KEY, REQUEST_ID_META_KEY, RPC_INTERNAL, RPC_INVALID_PARAMS, RPC_RESOURCE_NOT_FOUND, RPC_UNAUTHENTICATED, RpcError } from "./rpc.js";

export { ERROR_META_KEY, REQUEST_ID_META_KEY } from "./rpc.js";

/**
 * Exhaustive: a new error code does not compile until MCP decides. Whatever a caller can
 * fix is a tool result the model reads; not being signed in, and our own faults, are
 * protocol errors (the call itself failed). An unreachable database is a tool result: the
 * model should read "try again shortly", and MCP clients often hide protocol errors.
 */
export function failureKind(code: CairnErrorCode): "tool" | "protocol" {
  switch (code) {
    case "validation_failed":
    case "unknown_schema":
    case "duplicate":
    case "idempotency_mismatch":
    case "conflict":
    case "already_decided":
    case "expired":
    case "forbidden":
    case "not_found":
    case "gone":
    case "payload_too_large":
    case "unsupported_media_type":
    case "rate_limited":
    case "unavailable":
      return "tool";
    case "unauthenticated":
    case "internal":
      return "protocol";
  }
}

/**
 * The JSON-RPC code of a failed resources/* or prompts/* request (they have no tool-error
 * channel). Exhaustive, like failureKind. A resource that cannot be had is -32602 with REST's body as data (docs/adr/0051).
 */
export function requestErrorCode(code: CairnErrorCode): number {
  switch (code) {
    case "not_found":
    case "gone":
      return RPC_RESOURCE_NOT_FOUND;
    case "validation_failed":
    case "unknown_schema":
    case "duplicate":
    case "idempotency_mismatch":
    case "forbidden":
    case "conflict":
    case "already_decided":
    case "expired":
    case "payload_too_large":
    case "unsupported_media_type":
    case "rate_limited":
      return RPC_INVALID_PARAMS;
    case "unauthenticated":
      return RPC_UNAUTHENTICATED;
    case "unavailable":
    case "internal":
      return RPC_INTERNAL;
  }
}

/** A successful call: the object as structuredContent, the same JSON as text, then any links. */
export function toolSuccess(value: unknown, links: ContentBlock[] = []): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(value) }, ...links],
    structuredContent: value as Record<string, unknown>,
  };
}

/** Where a failure happened, for the log line (names only, never values). */
export interface FailureSite {
  /** The tool, or the MCP method for requests that are not tool calls. */
  tool: string;
  requestId?: string | undefined;
}

/** Logs what is not ours to explain and returns the body a client may see (never an unknown error's message). */
export function errorBodyOf(err: unknown, log: Logger, site: FailureSite): { code: CairnErrorCode; body: CairnErrorBody } {
  const cairnError = toCairnError(err);
  const fields = { requestId: site.requestId, surface: "mcp", tool: site.tool };
  if (!(err instanceof CairnError)) log.error({ code: "internal", ...fields }, err);
  else if (cairnError.code === "unavailable") logUnavailable(log, fields, (err as { cause?: unknown }).cause);
  return { code: cairnError.code, body: cairnError.toBody() };
}

/**
 * Turns a thrown value into the tool error REST would have sent as a body, or throws the
 * protocol error. The envelope travels as the JSON text block and in `_meta`, never in
 * structuredContent: SDK 1.x clients validate structuredContent against the tool's
 * success outputSchema even when isError is set (typescript-sdk #2748), so an error there
 * would make `callTool` throw instead of showing the model what to fix. A drop's `cause`
 * and `next_action` are phrased for a model on MCP by core. `request_id` (in `_meta` of a
 * tool error, in `data` of a JSON-RPC error) is the X-Request-Id of the HTTP request and the
 * id in the server's log line, so a person can quote it (SPEC §30).
 */
export function toolFailure(err: unknown, log: Logger, tool: string, requestId?: string): CallToolResult {
  const { code, body } = errorBodyOf(err, log, { tool, requestId });
  const quoted = requestId === undefined ? {} : { [REQUEST_ID_META_KEY]: requestId };
  if (failureKind(code) === "protocol") {
    throw new RpcError(code === "unauthenticated" ? RPC_UNAUTHENTICATED : RPC_INTERNAL, body.message, { error: body, ...quoted });
  }
  return { content: [{ type: "text", text: JSON.stringify({ error: body }) }], isError: true, _meta: { [ERROR_META_KEY]: body, ...quoted } };
}
