import { type Cairn, CairnError, clientAbortResponse, LIMITS, type Principal } from "@cairn/core";
import { jsonSyntaxReason } from "@cairn/core/json";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { versionOfHttpRequest } from "./protocol.js";
import { createMcpServer, type McpServerOptions } from "./server.js";

/** 401 with the challenge that points an OAuth client at the resource's metadata (SPEC §26, built by core). */
function unauthenticatedResponse(cairn: Cairn, error: CairnError, sentToken: boolean): Response {
  return Response.json(
    { error: error.toBody() },
    { status: 401, headers: { "WWW-Authenticate": cairn.oauth.challenge({ invalidToken: sentToken }) } },
  );
}

/**
 * The SDK answers a body that is not JSON with "Parse error: Invalid JSON"; this says where
 * it breaks (line and column), as REST and `cairn mcp` do (SPEC §22). Any other answer is
 * passed on untouched.
 */
async function whereJsonBreaks(res: Response, request: Request): Promise<Response> {
  if (res.status !== 400) return res;
  const answer = (await res.clone().json().catch(() => null)) as { error?: { code?: number; message?: string } } | null;
  if (answer?.error?.code !== -32700 || answer.error.message !== "Parse error: Invalid JSON") return res;
  const text = await request.text();
  try {
    JSON.parse(text);
    return res;
  } catch (err) {
    const message = `Parse error: the request body ${jsonSyntaxReason(text, err)}`;
    return Response.json({ jsonrpc: "2.0", error: { code: -32700, message }, id: null }, { status: 400, headers: res.headers });
  }
}

/**
 * The Streamable HTTP endpoint as a web-standard handler (mount it at /mcp). Stateless:
 * every POST gets a fresh server and transport bound to the caller's token, and the
 * answer is plain JSON, so any `cairn serve` behind a load balancer can take any request.
 * There is no server-to-client stream, so GET and DELETE answer 405.
 */
export function createMcpHttpHandler(cairn: Cairn, options: McpServerOptions): (req: Request, requestId?: string) => Promise<Response> {
  return async (req, requestId) => {
    let principal: Principal;
    try {
      principal = await cairn.authenticateHeader(req.headers.get("authorization"));
    } catch (err) {
      if (err instanceof CairnError && err.code === "unauthenticated") return unauthenticatedResponse(cairn, err, req.headers.has("authorization"));
      throw err;
    }
    if (req.method !== "POST") {
      return Response.json(
        { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this endpoint is stateless; send JSON-RPC with POST." }, id: null },
        { status: 405, headers: { Allow: "POST" } },
      );
    }
    const server = createMcpServer(cairn, principal, {
      ...options,
      protocolVersion: versionOfHttpRequest(req),
      ...(requestId !== undefined && { requestId }),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: LIMITS.requestBytes,
    });
    await server.connect(transport);
    // Kept only to say where a body that is not JSON breaks; read only then, and the transport has bounded it.
    const copy = req.clone();
    try {
      const answer = await transport.handleRequest(req);
      // The transport answers a body it could not read as a parse error; a client that left is no such thing.
      if (req.signal.aborted) return clientAbortResponse(cairn.log, { surface: "mcp", method: req.method, path: "/mcp", requestId });
      return await whereJsonBreaks(answer, copy);
    } finally {
      // The JSON answer is complete once handleRequest resolves; nothing outlives the request.
      await server.close();
    }
  };
}
