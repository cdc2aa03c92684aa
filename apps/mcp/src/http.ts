import { type Cairn, CairnError, clientAbortResponse, LIMITS, type Principal } from "@cairn/core";
import { jsonSyntaxReason } from "@cairn/core/json";
import {
  type AuthInfo,
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  type McpRequestContext,
  readRequestBody,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { MODERN_PROTOCOL_VERSION, versionOfHttpRequest } from "./protocol.js";
import { createMcpServer, type McpServerOptions } from "./server.js";

/**
 * The one place /mcp decides who is calling. A request without a valid bearer token is
 * answered 401 with REST's envelope and the challenge, before any MCP runs.
 */
export async function authenticateMcp(cairn: Cairn, req: Request, requestId?: string): Promise<Principal | Response> {
  try {
    return await cairn.authenticateHeader(req.headers.get("authorization"));
  } catch (err) {
    if (!(err instanceof CairnError && err.code === "unauthenticated")) throw err;
    // The challenge points an OAuth client at the resource's metadata (SPEC §26, built by core).
    const challenge = cairn.oauth.challenge({ invalidToken: req.headers.has("authorization") });
    return Response.json({ error: err.toBody(requestId) }, { status: 401, headers: { "WWW-Authenticate": challenge } });
  }
}

const jsonRpcError = (status: number, code: number, message: string) => Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });

/**
 * A JSON body, read once and bounded, then handed to the SDK parsed (so it neither reads
 * nor copies it again). A body that is not JSON is answered here, saying where it breaks
 * (line and column), as REST and `cairn mcp` do (SPEC §22); the size answer is the SDK's
 * own. Another content type is left to the SDK, which refuses it (415) unread.
 */
async function readJsonBody(req: Request): Promise<{ parsed: unknown } | Response | null> {
  if (!isJsonContentType(req.headers.get("content-type"))) return null;
  const read = await readRequestBody(req, LIMITS.requestBytes);
  if (read.tooLarge) return jsonRpcError(413, -32000, `Payload Too Large: Request body must not exceed ${LIMITS.requestBytes} bytes`);
  try {
    return { parsed: JSON.parse(read.text) };
  } catch (err) {
    return jsonRpcError(400, -32700, `Parse error: the request body ${jsonSyntaxReason(read.text, err)}`);
  }
}

/** What the handler passes to the per-request factory: the caller, and the request id of the log line. */
interface CallerInfo {
  principal: Principal;
  requestId: string | undefined;
}

/**
 * The Streamable HTTP endpoint as a web-standard handler (mount it at /mcp), for both
 * protocol eras from one factory, which builds a fresh server per request bound to the
 * caller's token. 2026-07-28 requests (each carrying its own `_meta` envelope;
 * `server/discover`) go to the SDK's `createMcpHandler`. 2025-era requests (`initialize`
 * with 2025-11-25, 2025-06-18 …) are routed by the SDK's own `isLegacyRequest` to a
 * stateless transport that answers plain JSON, as /mcp always has (the SDK's built-in
 * legacy leg answers SSE; docs/adr/0051). Nothing is kept between requests, so any
 * `cairn serve` behind a load balancer can take any request; GET and DELETE are 405.
 */
export function createMcpHttpHandler(cairn: Cairn, options: McpServerOptions): (req: Request, requestId?: string) => Promise<Response> {
  const factory = ({ era, authInfo, requestInfo }: McpRequestContext) => {
    const caller = authInfo?.extra?.caller as CallerInfo;
    return createMcpServer(cairn, caller.principal, {
      ...options,
      protocolVersion: era === "modern" ? MODERN_PROTOCOL_VERSION : versionOfHttpRequest(requestInfo),
      ...(caller.requestId !== undefined && { requestId: caller.requestId }),
    });
  };
  // The SDK's default response mode answers one JSON body unless a handler sends something
  // before its result; Cairn's never do, so answers stay JSON (docs/adr/0051).
  const modern = createMcpHandler(factory, {
    legacy: "reject",
    maxRequestBodySize: LIMITS.requestBytes,
    onerror: (err) => cairn.log.warn({ code: "mcp_transport", surface: "mcp" }, err),
  });
  const legacy = async (req: Request, authInfo: AuthInfo, parsedBody: unknown): Promise<Response> => {
    const server = factory({ era: "legacy", authInfo, requestInfo: req });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: LIMITS.requestBytes,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(req, { authInfo, ...(parsedBody !== undefined && { parsedBody }) });
    } finally {
      // The JSON answer is complete once handleRequest resolves; nothing outlives the request.
      await server.close();
    }
  };
  return async (req, requestId) => {
    const principal = await authenticateMcp(cairn, req, requestId);
    if (principal instanceof Response) return principal;
    if (req.method !== "POST") {
      return Response.json(
        { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this endpoint is stateless; send JSON-RPC with POST." }, id: null },
        { status: 405, headers: { Allow: "POST" } },
      );
    }
    const caller: CallerInfo = { principal, requestId };
    const authInfo: AuthInfo = { token: "", clientId: principal.token.id, scopes: [], extra: { caller } };
    const aborted = () => clientAbortResponse(cairn.log, { surface: "mcp", method: req.method, path: "/mcp", requestId });
    const body = await readJsonBody(req).catch((err: unknown) => {
      if (req.signal.aborted) return aborted();
      cairn.log.warn({ code: "mcp_transport", surface: "mcp" }, err);
      return jsonRpcError(400, -32700, "Parse error: the request body could not be read");
    });
    if (body instanceof Response) return body;
    const parsedBody = body?.parsed;
    const isLegacy = await isLegacyRequest(req, parsedBody, { maxRequestBodySize: LIMITS.requestBytes }).catch(() => true);
    const answer = isLegacy ? await legacy(req, authInfo, parsedBody) : await modern.fetch(req, { authInfo, ...(body && { parsedBody }) });
    // The transport answers a body it could not read as a parse error; a client that left is no such thing.
    if (req.signal.aborted) return aborted();
    return answer;
  };
}
