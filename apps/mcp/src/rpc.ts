// No core import here: the stdio proxy loads this without the rest of Cairn.

/** JSON-RPC codes for the failures that are protocol errors rather than tool results. */
export const RPC_UNAUTHENTICATED = -32010;
export const RPC_INTERNAL = -32603;
export const RPC_INVALID_PARAMS = -32602;
/** Where a tool error's envelope also travels, for clients that read `_meta` rather than text. */
export const ERROR_META_KEY = "cairn.dev/error";

/** MCP's code for a resource that does not exist or cannot be read. */
export const RPC_RESOURCE_NOT_FOUND = -32002;

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
