import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  CallToolResultSchema,
  GetPromptRequestSchema,
  GetPromptResultSchema,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  LATEST_PROTOCOL_VERSION,
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
  type ServerCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import { negotiate, shapeForVersion } from "./protocol.js";
import { connectUpstream, relay, type Upstream } from "./upstream.js";

type Send = (method: string, params: unknown, options: RequestOptions) => Promise<unknown>;
type Forwarder = (server: Server, relayed: (request: { method: string; params?: unknown }, extra: { signal: AbortSignal }) => never) => void;

/**
 * Every request the proxy relays, by the capability that offers it. The proxy declares
 * only what the server declared, so a client never sees a method it cannot use.
 */
const FORWARDED: Record<"tools" | "resources" | "prompts", Forwarder> = {
  tools(server, relayed) {
    server.setRequestHandler(ListToolsRequestSchema, relayed);
    server.setRequestHandler(CallToolRequestSchema, relayed);
  },
  resources(server, relayed) {
    server.setRequestHandler(ListResourcesRequestSchema, relayed);
    server.setRequestHandler(ListResourceTemplatesRequestSchema, relayed);
    server.setRequestHandler(ReadResourceRequestSchema, relayed);
  },
  prompts(server, relayed) {
    server.setRequestHandler(ListPromptsRequestSchema, relayed);
    server.setRequestHandler(GetPromptRequestSchema, relayed);
  },
};

/** How each relayed result is checked on the way through (the SDK's own result schemas). */
const RESULT_SCHEMAS = {
  "tools/list": ListToolsResultSchema,
  "tools/call": CallToolResultSchema,
  "resources/list": ListResourcesResultSchema,
  "resources/templates/list": ListResourceTemplatesResultSchema,
  "resources/read": ReadResourceResultSchema,
  "prompts/list": ListPromptsResultSchema,
  "prompts/get": GetPromptResultSchema,
} as const;

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
  const send: Send = (method, params, requestOptions) => {
    const schema = RESULT_SCHEMAS[method as keyof typeof RESULT_SCHEMAS];
    return relay(options.serverUrl, options.warn, () => client.request({ method, params } as never, schema, requestOptions));
  };
  // The revision our client negotiated; upstream speaks the newest, so tool results are
  // shaped down to what this client can parse.
  let negotiated = LATEST_PROTOCOL_VERSION;
  // The handler's result is the upstream's, already checked against the SDK's result schema.
  const relayed = (request: { method: string; params?: unknown }, extra: { signal: AbortSignal }) =>
    send(request.method, request.params, { signal: extra.signal }).then((result) =>
      request.method === "tools/call" ? shapeForVersion(result as CallToolResult, negotiated) : result,
    ) as never;
  for (const kind of kinds) FORWARDED[kind](server, relayed);

  const stdin = options.stdin ?? process.stdin;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
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
