import { OPERATIONS } from "@cairn/core";
import type { Tool } from "@modelcontextprotocol/server";
import { withAppTool } from "./app/resource.js";
import { toolJsonSchema } from "./json-schema.js";
import { type ToolName, toolAnnotations, toolNames } from "./tools.js";

/** Told to every MCP client at initialisation; models read it before choosing a tool. */
export const INSTRUCTIONS =
  "Cairn keeps receipts of finished work. When you finish a task that changed something, call receipt_create once " +
  'with every field answered (state `learned` even when it is "nothing new"); the server renders, checksums and ' +
  "stores it and returns a share url to give the user and a resource_link (mcp://cairn/artifacts/<id>) you can read " +
  "with resources/read. Receipts expire unless a person retains them. A tool error carries JSON " +
  "{error: {code, message, issues, drop}}: each issue names a field, the reason and the limit, and drop.next_action " +
  "says what to do, so fix those fields and call again. The `receipt` prompt asks the nine questions.";

/**
 * Inputs a tool accepts but does not offer a model: `schema` has one valid value, which
 * is the default, so offering it only invites a wrong guess. Sent anyway, it is still
 * checked by core (an unknown schema is refused and leaves a drop).
 */
const HIDDEN_INPUTS: Partial<Record<ToolName, readonly string[]>> = { receipt_create: ["schema"] };

function withoutInputs(schema: ReturnType<typeof toolJsonSchema>, hidden: readonly string[] = []): Tool["inputSchema"] {
  if (hidden.length === 0) return schema;
  const properties = { ...(schema.properties as Record<string, Record<string, never>>) };
  for (const key of hidden) delete properties[key];
  const required = (schema.required as string[] | undefined)?.filter((key) => !hidden.includes(key));
  return { ...schema, properties, ...(required && { required }) };
}

// Per operation, so generating the JSON Schemas happens once however often tools/list is asked.
const cache = new WeakMap<object, Tool>();

/** The tool list, generated from the core operations registry. */
export function toolDefinitions(): Tool[] {
  return toolNames().map((name) => {
    const op = OPERATIONS[name];
    const known = cache.get(op);
    if (known) return known;
    const tool: Tool = withAppTool({
      name,
      title: op.title,
      description: op.description,
      inputSchema: withoutInputs(toolJsonSchema(op.input, "input"), HIDDEN_INPUTS[name]),
      outputSchema: toolJsonSchema(op.output, "output"),
      annotations: toolAnnotations(op),
    });
    cache.set(op, tool);
    return tool;
  });
}
