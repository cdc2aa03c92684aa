import { isOfferedOn, OPERATIONS, type Operation, type OperationName, operationNames } from "@cairn/core";

/**
 * An operation name that is an MCP tool. Which operations are tools is the operation's own
 * attribute in core (`notOn.mcp`, with the reason): agent tokens are refused most of those
 * anyway (SPEC §18), and keeping them out of the list keeps a model from trying.
 */
export type ToolName = OperationName;

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(OPERATIONS, name) && isOfferedOn(OPERATIONS[name as OperationName], "mcp");
}

/** Why an operation is not a tool, or undefined when it is one. */
export const notToolReason = (name: OperationName): string | undefined => OPERATIONS[name].notOn.mcp;

/** Every tool, in registry order. */
export const toolNames = (): ToolName[] => operationNames().filter(isToolName);

/** MCP's hints, derived from what the operation declares; never written per tool. */
export function toolAnnotations(op: Operation) {
  return {
    title: op.title,
    readOnlyHint: !op.mutates,
    destructiveHint: op.mutates && op.destructive,
    idempotentHint: op.idempotent,
    openWorldHint: false,
  };
}
