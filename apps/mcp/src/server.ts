import type { Cairn, Principal } from "@cairn/core";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { toolFailure, toolSuccess } from "./adapter.js";
import { RpcError } from "./rpc.js";
import { INSTRUCTIONS, toolDefinitions } from "./catalog.js";
import { isToolName, toolNames } from "./tools.js";

export interface McpServerOptions {
  /** Reported as serverInfo.version. */
  version: string;
  /** The HTTP request this server answers, for the log lines of its failures. */
  requestId?: string;
}

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
 * errors). Here the core operation validates, exactly as it does for REST.
 */
export function createMcpServer(cairn: Cairn, principal: Principal, options: McpServerOptions): Server {
  const server = new Server(
    { name: "cairn", title: "Cairn", version: options.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolDefinitions() }));
  server.setRequestHandler(LooseCallToolRequest, async (request) => {
    const { name, arguments: args } = request.params;
    if (typeof name !== "string" || !isToolName(name)) {
      throw new RpcError(ErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(name)}; the tools are ${toolNames().join(", ")}.`);
    }
    try {
      return toolSuccess(await cairn.invoke(name, cairn.context(principal, "mcp", { requestId: options.requestId }), args ?? {}));
    } catch (err) {
      // Unexpected errors go to the process logger (code and our stack only), never to the client.
      return toolFailure(err, cairn.log, name, options.requestId);
    }
  });
  return server;
}
