export { failureKind } from "./adapter.js";
export { RPC_INTERNAL, RPC_UNAUTHENTICATED, RpcError } from "./rpc.js";
export { INSTRUCTIONS, toolDefinitions } from "./catalog.js";
export { createMcpHttpHandler } from "./http.js";
export { toolJsonSchema } from "./json-schema.js";
export { createMcpServer, type McpServerOptions } from "./server.js";
export { type RunningProxy, runStdioProxy, type StdioProxyOptions } from "./stdio-proxy.js";
export { isToolName, NOT_TOOLS, toolAnnotations, type ToolName, toolNames } from "./tools.js";
export { explainUpstreamFailure } from "./upstream.js";
