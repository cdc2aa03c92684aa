import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { RPC_INTERNAL, RPC_UNAUTHENTICATED, RpcError } from "./rpc.js";

export interface Upstream {
  /** The Cairn server's base URL, e.g. http://127.0.0.1:7373. */
  serverUrl: string;
  token: string;
}

/** Why talking to the server failed, in words a person can act on (the token is never printed). */
export function explainUpstreamFailure(
  err: unknown,
  serverUrl: string,
): { unauthenticated: boolean; unavailable?: true; message: string } {
  if (err instanceof StreamableHTTPError) {
    if (err.code === 503) {
      return {
        unauthenticated: false,
        unavailable: true,
        message: `the Cairn server at ${serverUrl} is unavailable (503): its database is down or not answering. Try again shortly.`,
      };
    }
    if (err.code === 401) {
      return {
        unauthenticated: true,
        message: `the Cairn server at ${serverUrl} refused the token (401). Set CAIRN_TOKEN to a valid token, or check $CAIRN_HOME/credentials.`,
      };
    }
    if (err.code === 404) {
      return { unauthenticated: false, message: `${serverUrl} has no MCP endpoint at /mcp (404). Is CAIRN_URL a Cairn server?` };
    }
    return { unauthenticated: false, message: `the Cairn server at ${serverUrl} answered HTTP ${err.code}: ${err.message}` };
  }
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (err instanceof TypeError && cause) {
    const why = typeof cause.code === "string" ? cause.code : String(cause.message ?? err.message);
    return {
      unauthenticated: false,
      message: `cannot reach the Cairn server at ${serverUrl} (${why}). Is \`cairn serve\` running there? Set CAIRN_URL to point at it.`,
    };
  }
  return { unauthenticated: false, message: `cannot talk to the Cairn server at ${serverUrl}: ${(err as Error)?.message ?? String(err)}` };
}

/** Connects an SDK client to the server's Streamable HTTP endpoint; throws an Error whose message says why not. */
export async function connectUpstream(upstream: Upstream, version: string): Promise<Client> {
  const client = new Client({ name: "cairn-mcp-stdio", version });
  const transport = new StreamableHTTPClientTransport(new URL(`${upstream.serverUrl}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${upstream.token}` } },
  });
  try {
    await client.connect(transport);
  } catch (err) {
    throw new Error(explainUpstreamFailure(err, upstream.serverUrl).message);
  }
  return client;
}

/**
 * Relays an upstream call. A JSON-RPC error the server sent is passed on unchanged (code,
 * message, data); a transport failure becomes a protocol error that says why, and is also
 * reported through `warn`, because MCP clients often hide protocol errors from people.
 */
export async function relay<T>(serverUrl: string, warn: (line: string) => void, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof McpError) throw new RpcError(err.code, err.message.replace(/^MCP error -?\d+: /, ""), err.data);
    const { unauthenticated, unavailable, message } = explainUpstreamFailure(err, serverUrl);
    warn(`cairn mcp: ${message}`);
    const code = unauthenticated ? "unauthenticated" : unavailable ? "unavailable" : "internal";
    throw new RpcError(unauthenticated ? RPC_UNAUTHENTICATED : RPC_INTERNAL, message, { error: { code, message } });
  }
}
