import { OPERATIONS } from "@cairn/core";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { toolJsonSchema } from "./json-schema.js";
import { toolAnnotations, toolNames } from "./tools.js";

/** Told to every MCP client at initialisation; models read it before choosing a tool. */
export const INSTRUCTIONS =
  "Cairn keeps receipts of finished work. When you finish a task that changed something, call receipt_create once " +
  "with every field answered (state `learned` even when it is \"nothing new\"); the server renders, checksums and " +
  "stores it and returns a share url to give the user. A tool error carries JSON {error: {code, message, issues}}: " +
  "each issue names a field, the reason and the limit, so fix those fields and call again.";

// Per operation, so generating the JSON Schemas happens once however often tools/list is asked.
const cache = new WeakMap<object, Tool>();

/** The tool list, generated from the core operations registry. */
export function toolDefinitions(): Tool[] {
  return toolNames().map((name) => {
    const op = OPERATIONS[name];
    const known = cache.get(op);
    if (known) return known;
    const tool: Tool = {
      name,
      title: op.title,
      description: op.description,
      inputSchema: toolJsonSchema(op.input, "input"),
      outputSchema: toolJsonSchema(op.output, "output"),
      annotations: toolAnnotations(op),
    };
    cache.set(op, tool);
    return tool;
  });
}
