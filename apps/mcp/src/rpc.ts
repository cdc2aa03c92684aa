// No core import here: the stdio proxy loads this without the rest of Cairn.

/** JSON-RPC codes for the failures that are protocol errors rather than tool results. */
export const RPC_UNAUTHENTICATED = -32010;
export const RPC_INTERNAL = -32603;
export const RPC_INVALID_PARAMS = -32602;
/** Where a tool error's envelope also travels, for clients that read `_meta` rather than text. */
export const ERROR_META_KEY = "cairn.dev/error";
/** Where an error carries the id of the request that failed: X-Request-Id over HTTP, and the id in the server's log line. */
export const REQUEST_ID_META_KEY = "request_id";

/**
 * A resource that does not exist or cannot be read. The 2026-07-28 revision answers it with
 * -32602 (invalid params), and SDK 2's codecs send -32002 as -32602 in both eras, so this
 * is what every client sees (docs/adr/0051); `data.error.code` still says not_found or gone.
 */
export const RPC_RESOURCE_NOT_FOUND = -32602;

/**
 * A JSON-RPC error as the SDK sends it: `code`, `message` and `data` are copied to the
 * wire verbatim (unlike McpError, whose message gains an "MCP error N:" prefix).
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }
}
