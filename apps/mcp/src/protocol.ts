// No core import here: the stdio relay loads this without the rest of Cairn.
import { type CallToolResult, DEFAULT_NEGOTIATED_PROTOCOL_VERSION, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";

/** The current specification revision: stateless, `server/discover`, a `_meta` envelope on every request (docs/adr/0051). */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/**
 * A 2025-era `initialize` is negotiated as the pinned SDK's Server does (docs/adr/0022): a
 * supported revision is answered in kind, anything else with the newest 2025 revision.
 * 2026-07-28 clients never send `initialize`; they discover (`server/discover`).
 */
export function negotiate(requested: unknown): string {
  return typeof requested === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/**
 * The revision a 2025-era Streamable HTTP request speaks: its MCP-Protocol-Version header,
 * or, for a client that sends none, 2025-03-26 (the specification's rule for older clients).
 */
export const versionOfHttpRequest = (req: Request | undefined): string => req?.headers.get("mcp-protocol-version") ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;

/** `resource_link` content blocks are new in 2025-06-18; an older client's schema has no such block. */
const RESOURCE_LINKS_SINCE = "2025-06-18";

/**
 * A tool result as a client of `version` can parse it. Revisions are dates, so they
 * compare as strings. Everything else we send is an addition older clients ignore.
 */
export function shapeForVersion(result: CallToolResult, version: string): CallToolResult {
  if (version >= RESOURCE_LINKS_SINCE) return result;
  return { ...result, content: result.content.filter((block) => block.type !== "resource_link") };
}
