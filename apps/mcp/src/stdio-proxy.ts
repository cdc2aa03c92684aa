import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { RpcError } from "./rpc.js";
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
 * `cairn mcp`: an MCP server on stdio that forwards tools/list and tools/call to the
 * Cairn server's Streamable HTTP endpoint. Tools, validation and errors are the server's
 * own, so stdio and HTTP answer byte for byte alike and provenance records `mcp`. It
 * connects before serving, so a wrong URL or token fails at once with a plain reason.
 */
export async function runStdioProxy(options: StdioProxyOptions): Promise<RunningProxy> {
  const client = await connectUpstream(options, options.version);
  const remote = client.getServerVersion();
  const instructions = client.getInstructions();
  const server = new Server(
    { name: remote?.name ?? "cairn", ...(remote?.title && { title: remote.title }), version: remote?.version ?? options.version },
    { capabilities: { tools: {} }, ...(instructions && { instructions }) },
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
  server.setRequestHandler(ListToolsRequestSchema, (request, extra) =>
    forward(() => client.request({ method: "tools/list", params: request.params }, ListToolsResultSchema, { signal: extra.signal })),
  );
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    try {
      return await forward(() =>
        client.request({ method: "tools/call", params: request.params }, CallToolResultSchema, { signal: extra.signal }),
      );
    } catch (err) {
      // The server's database is down: a tool error the model reads ("try again shortly"), as over HTTP.
      if (err instanceof RpcError && (err.data as { error?: { code?: unknown } } | undefined)?.error?.code === "unavailable") {
        return { content: [{ type: "text" as const, text: JSON.stringify(err.data) }], isError: true };
      }
      throw err;
    }
  });

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
  await server.connect(new StdioServerTransport(stdin as never, options.stdout as never));
  return { done, close };
}
