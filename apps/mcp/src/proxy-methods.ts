import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
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
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
} from "@modelcontextprotocol/sdk/types.js";

export type Relayed = (request: { method: string; params?: unknown }, extra: { signal: AbortSignal }) => never;

/**
 * Every request the stdio proxy relays, by the capability that offers it. The proxy
 * declares only what the server declared, so a client never sees a method it cannot use.
 */
export const FORWARDED: Record<"tools" | "resources" | "prompts", (server: Server, relayed: Relayed) => void> = {
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
export const RESULT_SCHEMAS = {
  "tools/list": ListToolsResultSchema,
  "tools/call": CallToolResultSchema,
  "resources/list": ListResourcesResultSchema,
  "resources/templates/list": ListResourceTemplatesResultSchema,
  "resources/read": ReadResourceResultSchema,
  "prompts/list": ListPromptsResultSchema,
  "prompts/get": GetPromptResultSchema,
} as const;
