import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { type CallToolResult, LATEST_PROTOCOL_VERSION, type ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { negotiate, shapeForVersion } from "./protocol.js";
import { FORWARDED, RESULT_SCHEMAS, type Relayed } from "./proxy-methods.js";
import { ERROR_META_KEY, RpcError } from "./rpc.js";
import { connectUpstream, relay, type Upstream } from "./upstream.js";

export interface StdioProxyOptions extends Upstream {
  version: string;
  /** One plain line per problem, for the person reading the MCP client's log (stderr). */
  warn(line: string): void;
  stdin?: NodeJS.ReadableStream & { on(event: "end" | "close", listener: () => void): unknown };
  stdout?: NodeJS.WritableStream;
}

export interface RunningProxy {
  /** Settles when the MCP client closes stdin or the connection ends. */
  done: Promise<void>;
  close(): Promise<void>;
}

/**
 * `cairn mcp`: an MCP server on stdio that forwards tools, resources and prompts to the
 * Cairn server's Streamable HTTP endpoint. Tools, validation and errors are the server's
 * own, so stdio and HTTP answer byte for byte alike and provenance records `mcp`. It
 * connects before serving, so a wrong URL or token fails at once with a plain reason.
 */
export async function runStdioProxy(options: StdioProxyOptions): Promise<RunningProxy> {
  const client = await connectUpstream(options, options.version);
  const remote = client.getServerVersion();
  const instructions = client.getInstructions();
  const offered = client.getServerCapabilities() ?? { tools: {} };
  const kinds = (Object.keys(FORWARDED) as Array<keyof typeof FORWARDED>).filter((kind) => offered[kind]);
  const capabilities: ServerCapabilities = Object.fromEntries(kinds.map((kind) => [kind, {}]));
  const server = new Server(
    { name: remote?.name ?? "cairn", ...(remote?.title && { title: remote.title }), version: remote?.version ?? options.version },
    { capabilities, ...(instructions && { instructions }) },
  );
  // Calls still in flight when the client closes stdin are answered before we stop.
  const inFlight = new Set<Promise<unknown>>();
  const forward = <T>(call: () => Promise<T>): Promise<T> => {
    const pending = relay(options.serverUrl, options.warn, call);
    const settled = pending.catch(() => {});
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
    return pending;
  };
  const send = (method: string, params: unknown, requestOptions: RequestOptions) => {
    const schema = RESULT_SCHEMAS[method as keyof typeof RESULT_SCHEMAS];
    return forward(() => client.request({ method, params } as never, schema, requestOptions));
  };
  // The revision our client negotiated; upstream speaks the newest, so tool results are
  // shaped down to what this client can parse.
  let negotiated = LATEST_PROTOCOL_VERSION;
  const callTool = async (params: unknown, requestOptions: RequestOptions): Promise<CallToolResult> => {
    try {
      return shapeForVersion((await send("tools/call", params, requestOptions)) as CallToolResult, negotiated);
    } catch (err) {
      // The server's database is down: a tool error the model reads ("try again shortly"), as over HTTP.
      const body = err instanceof RpcError ? (err.data as { error?: { code?: unknown } } | undefined)?.error : undefined;
      if (body?.code === "unavailable") {
        return { content: [{ type: "text", text: JSON.stringify({ error: body }) }], isError: true, _meta: { [ERROR_META_KEY]: body } };
      }
      throw err;
    }
  };
  // The handler's result is the upstream's, already checked against the SDK's result schema.
  const relayed: Relayed = (request, extra) =>
    (request.method === "tools/call"
      ? callTool(request.params, { signal: extra.signal })
      : send(request.method, request.params, { signal: extra.signal })) as never;
  for (const kind of kinds) FORWARDED[kind](server, relayed);

  const stdin = options.stdin ?? process.stdin;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
      await tick(); // requests read just before end of input have started by now
      while (inFlight.size > 0) await Promise.all(inFlight);
      await tick(); // and their answers have been handed to the transport
      await server.close().catch(() => {});
      await client.close().catch(() => {});
      finish();
    })();
    return closing;
  };
  // The SDK's stdio transport does not watch for end of input; an MCP client ends a
  // session by closing our stdin, so that is when we stop.
  stdin.on("end", () => void close());
  stdin.on("close", () => void close());
  server.onclose = () => void close();
  const transport = new StdioServerTransport(stdin as never, options.stdout as never);
  await server.connect(transport);
  // The SDK's Server negotiates without telling us the outcome; read the request it answers.
  const deliver = transport.onmessage;
  transport.onmessage = (message) => {
    if ("method" in message && message.method === "initialize") negotiated = negotiate(message.params?.protocolVersion);
    deliver?.(message);
  };
  return { done, close };
}
