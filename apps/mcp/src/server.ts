import { type Artifact, askHintOf, type Cairn, OPERATIONS, type Principal } from "@cairn/core";
import {
  type CallToolResult,
  type ContentBlock,
  type JSONRPCRequest,
  LATEST_PROTOCOL_VERSION,
  type Result,
  Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { toolFailure, toolSuccess } from "./adapter.js";
import { RECEIPT_CARD_URI, readAppResource, withCardData } from "./app/resource.js";
import { INSTRUCTIONS, toolDefinitions } from "./catalog.js";
import { getPrompt, PROMPTS } from "./prompts.js";
import { shapeForVersion } from "./protocol.js";
import { LINKING_TOOLS, listResources, RESOURCE_TEMPLATES, readResource, resourceLinkOf } from "./resources.js";
import { RPC_INVALID_PARAMS, RpcError } from "./rpc.js";
import { isToolName, type ToolName, toolNames } from "./tools.js";

export interface McpServerOptions {
  /** Reported as serverInfo.version. */
  version: string;
  /** The request this server answers (the HTTP request's X-Request-Id), for its log lines and error `_meta`. */
  requestId?: string;
  /** The protocol revision this server's answers are for (default: the one it negotiates, else the SDK's newest 2025 revision). */
  protocolVersion?: string;
}

/** What this server offers; the stdio relay mirrors whatever the HTTP endpoint declares. */
export const SERVER_CAPABILITIES = { tools: {}, resources: {}, prompts: {} };

/**
 * tools/call's params, except that `name` and `arguments` may be anything: the SDK's own
 * schema would refuse a call whose arguments are not an object before our handler runs.
 * Here the tool name is checked below and the arguments go to core, which refuses them
 * like REST refuses such a body (a receipt's refusal still leaves its drop).
 */
const LooseCallToolParams = z.looseObject({ name: z.unknown(), arguments: z.unknown().optional(), _meta: z.unknown().optional() });

/**
 * The SDK's low-level Server, but tools/call is not re-validated by the SDK's wire schema:
 * core validates arguments (ADR 0005), and every result is ours (object structuredContent,
 * its JSON as text), which the parity suite checks against the output schemas.
 */
class CairnServer extends Server {
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    return method === "tools/call" ? handler : super._wrapHandler(method, handler);
  }
}

/**
 * An MCP server for one authenticated caller, for either protocol era: the SDK's entries
 * (`createMcpHandler` over HTTP, the in-memory pair in tests) bind it to the 2026-07-28
 * revision or to a 2025 `initialize`. The low-level Server is used on purpose (ADR 0005):
 * McpServer validates arguments with zod before the handler runs (so the receipt gates,
 * their classification and their drop would never see a bad call) and turns every thrown
 * error into a tool result (so "not signed in" and internal faults could not be protocol
 * errors). Here the core operation validates, exactly as it does for REST.
 */
export function createMcpServer(cairn: Cairn, principal: Principal, options: McpServerOptions): Server {
  const ctx = () => cairn.context(principal, "mcp", { requestId: options.requestId });
  /** A tool call's context: `_meta.traceparent` is passed on to the operations that read a traceparent (SPEC §21). */
  const callContext = (name: ToolName, meta: unknown) => {
    const traceparent = (meta as { traceparent?: unknown } | undefined)?.traceparent;
    if (typeof traceparent !== "string" || !OPERATIONS[name].headers.includes("traceparent")) return ctx();
    return cairn.context(principal, "mcp", { requestId: options.requestId, traceparent });
  };
  const server = new CairnServer(
    { name: "cairn", title: "Cairn", version: options.version },
    { capabilities: SERVER_CAPABILITIES, instructions: INSTRUCTIONS },
  );
  const revision = () => options.protocolVersion ?? server.getNegotiatedProtocolVersion() ?? LATEST_PROTOCOL_VERSION;
  server.setRequestHandler("tools/list", () => ({ tools: toolDefinitions() }));
  server.setRequestHandler("tools/call", { params: LooseCallToolParams }, async (params): Promise<CallToolResult> => {
    const { name, arguments: args } = params;
    if (typeof name !== "string" || !isToolName(name)) {
      throw new RpcError(RPC_INVALID_PARAMS, `Unknown tool ${JSON.stringify(name)}; the tools are ${toolNames().join(", ")}.`, {
        ...(options.requestId !== undefined && { request_id: options.requestId }),
      });
    }
    try {
      const value = await cairn.invoke(name, callContext(name, params._meta), args ?? {});
      const links: ContentBlock[] = LINKING_TOOLS.has(name) ? [resourceLinkOf(value as Artifact)] : [];
      // An ask is out: the agent is told how to hear the answer (core's words).
      const hint = name === "receipt_create" ? askHintOf(value as Artifact) : null;
      if (hint !== null) links.push({ type: "text", text: hint });
      return shapeForVersion(withCardData(name, toolSuccess(value, links), cairn.config.publicUrl), revision());
    } catch (err) {
      // Unexpected errors go to the process logger (code and our stack only), never to the client.
      return toolFailure(err, cairn.log, name, options.requestId);
    }
  });
  const site = (tool: string) => ({ log: cairn.log, site: { tool, requestId: options.requestId } });
  server.setRequestHandler("resources/templates/list", () => RESOURCE_TEMPLATES);
  server.setRequestHandler("resources/list", (request) => listResources(cairn, ctx(), request.params?.cursor, site("resources/list")));
  server.setRequestHandler("resources/read", (request) =>
    request.params.uri === RECEIPT_CARD_URI ? readAppResource() : readResource(cairn, ctx(), request.params.uri, site("resources/read")),
  );
  server.setRequestHandler("prompts/list", () => PROMPTS);
  server.setRequestHandler("prompts/get", (request) => getPrompt(request.params.name, request.params.arguments));
  return server;
}
