import { randomUUID } from "node:crypto";
import { type HttpAnswer, type HttpFetch, nodeFetch } from "../client/transport.js";
import { RPC_INTERNAL, RPC_UNAUTHENTICATED } from "../light.js";

/** An upstream request that has no answer by then fails, as the SDK's client times out. */
export const REQUEST_TIMEOUT_MS = 60_000;

export interface Upstream {
  /** The Cairn server's base URL, e.g. http://127.0.0.1:7373. */
  serverUrl: string;
  token: string;
  fetch?: HttpFetch;
}

/** Why talking to the server failed, in words that say what to do (built-binary.test.ts holds them). */
export interface Explained {
  unauthenticated: boolean;
  unavailable?: true;
  message: string;
}

/** An HTTP answer that is not a success: what it means for the person running `cairn mcp`. */
export function explainStatus(status: number, detail: string, serverUrl: string): Explained {
  if (status === 503) {
    return {
      unauthenticated: false,
      unavailable: true,
      message: `the Cairn server at ${serverUrl} is unavailable (503): its database is down or not answering. Try again shortly.`,
    };
  }
  if (status === 401) {
    return {
      unauthenticated: true,
      message: `the Cairn server at ${serverUrl} refused the token (401). Set CAIRN_TOKEN to a valid token, or check $CAIRN_HOME/credentials.`,
    };
  }
  if (status === 404) return { unauthenticated: false, message: `${serverUrl} has no MCP endpoint at /mcp (404). Is CAIRN_URL a Cairn server?` };
  return { unauthenticated: false, message: `the Cairn server at ${serverUrl} answered HTTP ${status}: Streamable HTTP error: ${detail}` };
}

/** A request that got no HTTP answer (fetch's TypeError with the system error as its cause), or another failure. */
export function explainError(err: unknown, serverUrl: string): Explained {
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

/** The upstream could not answer a message: why, in words, or the JSON-RPC error it would give. */
export class UpstreamFailure extends Error {
  constructor(
    readonly explained: Explained | null,
    readonly rpc: { code: number; message: string; data?: unknown },
  ) {
    super(rpc.message);
    this.name = "UpstreamFailure";
  }

  static explained(explained: Explained, requestId?: string): UpstreamFailure {
    const code = explained.unauthenticated ? "unauthenticated" : explained.unavailable ? "unavailable" : "internal";
    return new UpstreamFailure(explained, {
      code: explained.unauthenticated ? RPC_UNAUTHENTICATED : RPC_INTERNAL,
      message: explained.message,
      data: { error: { code, message: explained.message }, ...(requestId !== undefined && { request_id: requestId }) },
    });
  }
}

export type JsonRpcId = string | number;
export interface JsonRpcAnswer {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

const isAnswer = (value: unknown): value is JsonRpcAnswer => {
  const v = value as Partial<JsonRpcAnswer> | null;
  return typeof v === "object" && v !== null && v.jsonrpc === "2.0" && ("result" in v || typeof v.error?.code === "number");
};

/**
 * A redirect goes through the pinned SDK's own rule (followed only within the origin, and
 * only 307/308 for a POST), so it ends as it did when the SDK's client made every request.
 */
async function throughSdkRedirectRule(url: string, init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal }) {
  const { fetchWithinOrigin, unfollowedRedirect } = await import("@modelcontextprotocol/sdk/shared/transport.js");
  const res = await fetchWithinOrigin(fetch)(url, init);
  return { res: res as HttpAnswer, unfollowed: () => unfollowedRedirect(res, url) };
}

/**
 * Sends one JSON-RPC request to the server's Streamable HTTP endpoint (stateless, JSON
 * answers) and returns its answer, or throws an UpstreamFailure that says why not.
 * `protocolVersion` goes in the MCP-Protocol-Version header, so the server shapes its
 * answer for the revision our own client negotiated.
 */
export async function ask(
  upstream: Upstream,
  message: { id: JsonRpcId; method: string; params?: unknown },
  options: { protocolVersion?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<JsonRpcAnswer> {
  const url = `${upstream.serverUrl}/mcp`;
  // Minted here and sent as X-Request-Id, which the server adopts: its log line, its error's
  // request_id and ours (when it never answered) are the same id (SPEC §30).
  const requestId = randomUUID();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  const onCancel = () => controller.abort();
  options.signal?.addEventListener("abort", onCancel, { once: true });
  const init = {
    method: "POST",
    headers: {
      authorization: `Bearer ${upstream.token}`,
      "content-type": "application/json",
      "x-request-id": requestId,
      accept: "application/json, text/event-stream",
      ...(options.protocolVersion && { "mcp-protocol-version": options.protocolVersion }),
      ...options.headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", ...message }),
    signal: controller.signal,
  };
  try {
    let res = await (upstream.fetch ?? nodeFetch)(url, { ...init, redirect: "manual" });
    let unfollowed = () => undefined as string | undefined;
    if (res.status >= 300 && res.status < 400 && res.headers.get("location") !== null) {
      await res.text().catch(() => "");
      ({ res, unfollowed } = await throughSdkRedirectRule(url, init));
    }
    if (!res.ok) {
      const text = await res.text().catch(() => null);
      throw UpstreamFailure.explained(explainStatus(res.status, `Error POSTing to endpoint: ${unfollowed() ?? text}`, upstream.serverUrl), requestId);
    }
    const type = res.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
    if (type !== "application/json") {
      throw UpstreamFailure.explained(explainStatus(-1, `Unexpected content type: ${res.headers.get("content-type")}`, upstream.serverUrl), requestId);
    }
    const answer: unknown = JSON.parse(await res.text());
    if (!isAnswer(answer)) throw new Error("the answer is not a JSON-RPC response");
    return answer;
  } catch (err) {
    if (err instanceof UpstreamFailure) throw err;
    if (controller.signal.aborted && !options.signal?.aborted) {
      throw new UpstreamFailure(null, { code: -32001, message: "Request timed out", data: { timeout: REQUEST_TIMEOUT_MS, request_id: requestId } });
    }
    throw UpstreamFailure.explained(explainError(err, upstream.serverUrl), requestId);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onCancel);
  }
}
