import { type Cairn, CairnError, clientAbortResponse, LIMITS, type Principal } from "@cairn/core";
import { jsonSyntaxReason } from "@cairn/core/json";
import {
  type AuthInfo,
  createMcpHandler,
  isLegacyRequest,
  type McpRequestContext,
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

/**
 * The SDK answers a body that is not JSON with "Parse error: Invalid JSON"; this says where
 * it breaks (line and column), as REST and `cairn mcp` do (SPEC §22). Any other answer is
 * passed on untouched.
 */
async function whereJsonBreaks(res: Response, request: Request): Promise<Response> {
  if (res.status !== 400) return res;
  const answer = (await res
    .clone()
    .json()
    .catch(() => null)) as { error?: { code?: number; message?: string } } | null;
  if (answer?.error?.code !== -32700 || !answer.error.message?.startsWith("Parse error")) return res;
  const text = await request.text();
  try {
    JSON.parse(text);
    return res;
  } catch (err) {
    const message = `Parse error: the request body ${jsonSyntaxReason(text, err)}`;
    return Response.json({ jsonrpc: "2.0", error: { code: -32700, message }, id: null }, { status: 400, headers: res.headers });
  }
}

/** What the handler passes to the per-request factory: the caller, and the request id of the log line. */
interface CallerInfo {
  principal: Principal;
  requestId: string | undefined;
}

/**
 * Builds the SDK's handler without the line it prints on every start when answers are
 * JSON ("responseMode: 'json' drops mid-call notifications…"). Cairn answers JSON on
 * purpose (docs/adr/0051) and sends no notification during a call, so the line told
 * whoever ran `cairn serve` about a loss that cannot happen. Only that line is held back,
 * only while the handler is built; any other warning still reaches stderr.
 */
function withoutJsonModeNotice<T>(build: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].startsWith("responseMode: 'json' drops mid-call notifications")) return;
    warn(...args);
  };
  try {
    return build();
  } finally {
    console.warn = warn;
  }
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
  const modern = withoutJsonModeNotice(() =>
    createMcpHandler(factory, {
      legacy: "reject",
      responseMode: "json",
      maxRequestBodySize: LIMITS.requestBytes,
      onerror: (err) => cairn.log.warn({ code: "mcp_transport", surface: "mcp" }, err),
    }),
  );
  const legacy = async (req: Request, authInfo: AuthInfo): Promise<Response> => {
    const server = factory({ era: "legacy", authInfo, requestInfo: req });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: LIMITS.requestBytes,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(req, { authInfo });
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
    // Kept only to say where a body that is not JSON breaks; read only then, and the transports have bounded it.
    const copy = req.clone();
    const isLegacy = await isLegacyRequest(req, undefined, { maxRequestBodySize: LIMITS.requestBytes }).catch(() => true);
    const answer = isLegacy ? await legacy(req, authInfo) : await modern.fetch(req, { authInfo });
    // The transport answers a body it could not read as a parse error; a client that left is no such thing.
    if (req.signal.aborted) return clientAbortResponse(cairn.log, { surface: "mcp", method: req.method, path: "/mcp", requestId });
    return whereJsonBreaks(answer, copy);
  };
}
