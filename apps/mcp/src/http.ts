import { type Cairn, LIMITS, unauthenticated } from "@cairn/core";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createMcpServer, type McpServerOptions } from "./server.js";

function bearerOf(header: string | null): string | null {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1] ?? null;
}

function unauthenticatedResponse(bearer: string | null): Response {
  const error = unauthenticated(bearer ? "The bearer token is not valid." : "A bearer token is required.");
  return Response.json(
    { error: error.toBody() },
    { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="cairn"' } },
  );
}

/**
 * The Streamable HTTP endpoint as a web-standard handler (mount it at /mcp). Stateless:
 * every POST gets a fresh server and transport bound to the caller's token, and the
 * answer is plain JSON, so any `cairn serve` behind a load balancer can take any request.
 * There is no server-to-client stream, so GET and DELETE answer 405.
 */
export function createMcpHttpHandler(
  cairn: Cairn,
  options: McpServerOptions,
): (req: Request, requestId?: string) => Promise<Response> {
  return async (req, requestId) => {
    const bearer = bearerOf(req.headers.get("authorization"));
    const principal = bearer ? await cairn.authenticate(bearer) : null;
    if (!principal) return unauthenticatedResponse(bearer);
    if (req.method !== "POST") {
      return Response.json(
        { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this endpoint is stateless; send JSON-RPC with POST." }, id: null },
        { status: 405, headers: { Allow: "POST" } },
      );
    }
    const server = createMcpServer(cairn, principal, { ...options, ...(requestId !== undefined && { requestId }) });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: LIMITS.requestBytes,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(req);
    } finally {
      // The JSON answer is complete once handleRequest resolves; nothing outlives the request.
      await server.close();
    }
  };
}
