export { ERROR_META_KEY, failureKind, REQUEST_ID_META_KEY, requestErrorCode } from "./adapter.js";
export { RPC_INTERNAL, RPC_INVALID_PARAMS, RPC_RESOURCE_NOT_FOUND, RPC_UNAUTHENTICATED, RpcError } from "./rpc.js";
export { INSTRUCTIONS, toolDefinitions } from "./catalog.js";
export { createMcpHttpHandler } from "./http.js";
export { toolJsonSchema } from "./json-schema.js";
export { PROMPTS } from "./prompts.js";
export { RESOURCE_TEMPLATES } from "./resources.js";
export { createMcpServer, type McpServerOptions, SERVER_CAPABILITIES } from "./server.js";
export { isToolName, notToolReason, toolAnnotations, type ToolName, toolNames } from "./tools.js";
