import { type Artifact, type Cairn, OPERATIONS, type Principal } from "@cairn/core";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { toolFailure, toolSuccess } from "./adapter.js";
import { INSTRUCTIONS, toolDefinitions } from "./catalog.js";
import { getPrompt, PROMPTS } from "./prompts.js";
import { shapeForVersion } from "./protocol.js";
import { LINKING_TOOLS, listResources, RESOURCE_TEMPLATES, readResource, resourceLinkOf } from "./resources.js";
import { RpcError } from "./rpc.js";
import { isToolName, type ToolName, toolNames } from "./tools.js";

export interface McpServerOptions {
  /** Reported as serverInfo.version. */
  version: string;
  /** The HTTP request this server answers, for the log lines of its failures. */
  requestId?: string;
  /** The negotiated protocol revision this server's answers are for (default: the newest the SDK speaks). */
  protocolVersion?: string;
}

/** What this server offers; the stdio proxy mirrors whatever the HTTP endpoint declares. */
export const SERVER_CAPABILITIES = { tools: {}, resources: {}, prompts: {} };

/**
 * tools/call as the SDK defines it, except that `name` and `arguments` may be anything: the
 * SDK's own schema fails a call whose arguments are not an object with an internal error
 * (-32603). Here the tool name is checked below and the arguments go to core, which refuses
 * them like REST refuses such a body (a receipt's refusal still leaves its drop).
 */
const LooseCallToolRequest = CallToolRequestSchema.extend({
  params: z.looseObject({ name: z.unknown(), arguments: z.unknown().optional() }),
});

/**
 * An MCP server for one authenticated caller. The low-level Server is used on purpose:
 * McpServer validates arguments with zod before the handler runs (so the receipt gates,
 * their classification and their drop would never see a bad call) and turns every thrown
 * error into a tool result (so "not signed in" and internal faults could not be protocol
 * errors). Here the core operation validates, exactly as it does for REST. The protocol
 * version is the SDK's negotiation (docs/adr/0022).
 */
export function createMcpServer(cairn: Cairn, principal: Principal, options: McpServerOptions): Server {
  const ctx = () => cairn.context(principal, "mcp", { requestId: options.requestId });
  /** A tool call's context: `_meta.traceparent` is passed on to the operations that read a traceparent (SPEC §21). */
  const callContext = (name: ToolName, meta: unknown) => {
    const traceparent = (meta as { traceparent?: unknown } | undefined)?.traceparent;
    if (typeof traceparent !== "string" || !OPERATIONS[name].headers.includes("traceparent")) return ctx();
    return cairn.context(principal, "mcp", { requestId: options.requestId, traceparent });
  };
  const server = new Server(
    { name: "cairn", title: "Cairn", version: options.version },
    { capabilities: SERVER_CAPABILITIES, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolDefinitions() }));
  server.setRequestHandler(LooseCallToolRequest, async (request) => {
    const { name, arguments: args } = request.params;
    if (typeof name !== "string" || !isToolName(name)) {
      throw new RpcError(ErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(name)}; the tools are ${toolNames().join(", ")}.`);
    }
    try {
      const value = await cairn.invoke(name, callContext(name, request.params._meta), args ?? {});
      const links = LINKING_TOOLS.has(name) ? [resourceLinkOf(value as Artifact)] : [];
      return shapeForVersion(toolSuccess(value, links), options.protocolVersion ?? LATEST_PROTOCOL_VERSION);
    } catch (err) {
      // Unexpected errors go to the process logger (code and our stack only), never to the client.
      return toolFailure(err, cairn.log, name, options.requestId);
    }
  });
  const site = (tool: string) => ({ log: cairn.log, site: { tool, requestId: options.requestId } });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => RESOURCE_TEMPLATES);
  server.setRequestHandler(ListResourcesRequestSchema, (request) =>
    listResources(cairn, ctx(), request.params?.cursor, site("resources/list")),
  );
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    readResource(cairn, ctx(), request.params.uri, site("resources/read")),
  );
  server.setRequestHandler(ListPromptsRequestSchema, () => PROMPTS);
  server.setRequestHandler(GetPromptRequestSchema, (request) => getPrompt(request.params.name, request.params.arguments));
  return server;
}
