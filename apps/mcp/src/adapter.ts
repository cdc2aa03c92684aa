import { CairnError, type CairnErrorCode, type Logger, toCairnError } from "@cairn/core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { RPC_INTERNAL, RPC_UNAUTHENTICATED, RpcError } from "./rpc.js";

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
    case "forbidden":
    case "not_found":
    case "gone":
    case "payload_too_large":
    case "unsupported_media_type":
    case "unavailable":
      return "tool";
    case "unauthenticated":
    case "internal":
      return "protocol";
  }
}

/** A successful call: the object as structuredContent, and the same JSON as text for clients that only read text. */
export function toolSuccess(value: unknown): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
  };
}

/**
 * Turns a thrown value into the tool error REST would have sent as a body, or throws the
 * protocol error. The envelope is a JSON text block only: the SDK's client validates any
 * structuredContent against the tool's outputSchema even when isError is set, so an
 * error object there would break every SDK-based client.
 */
export function toolFailure(err: unknown, log: Logger, tool: string, requestId?: string): CallToolResult {
  const cairnError = toCairnError(err);
  if (!(err instanceof CairnError)) log.error({ code: "internal", requestId, surface: "mcp", tool }, err);
  else if (cairnError.code === "unavailable") {
    log.warn({ code: "database_unavailable", requestId, surface: "mcp", tool }, (err as { cause?: unknown }).cause);
  }
  const body = cairnError.toBody();
  if (failureKind(cairnError.code) === "protocol") {
    const code = cairnError.code === "unauthenticated" ? RPC_UNAUTHENTICATED : RPC_INTERNAL;
    throw new RpcError(code, body.message, { error: body });
  }
  return { content: [{ type: "text", text: JSON.stringify({ error: body }) }], isError: true };
}
