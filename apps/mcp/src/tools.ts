import { type Operation, OPERATIONS, type OperationName, operationNames } from "@cairn/core";

/**
 * Operations that are not MCP tools, each with the reason. Every other operation is a
 * tool, titled, described and annotated by the core registry, so a new operation reaches
 * MCP without an edit here. Agent tokens are refused these anyway (SPEC §18); keeping
 * them out of the list keeps a model from trying.
 */
export const NOT_TOOLS = {
  // Keeping a record forever is a person's decision; an export stream is not a tool call.
  artifact_retain: "a person's decision",
  artifact_export: "a stream, not a call",
  // Administration stays on REST and the CLI.
  me: "administration",
  user_create: "administration",
  token_create: "administration",
  token_list: "administration",
  token_revoke: "administration",
  // Team membership changes who can read what: kept for people, on REST and the CLI.
  team_create: "team membership is for people",
  team_read: "team membership is for people",
  team_member_add: "team membership is for people",
  team_member_remove: "team membership is for people",
  // An agent may see where its owner's events go; an outbound target is a person's decision (SPEC §18).
  subscription_create: "an outbound target is a person's decision",
  subscription_read: "agents list subscriptions; managing them is for people",
  subscription_delete: "an outbound target is a person's decision",
  subscription_enable: "an outbound target is a person's decision",
  subscription_deliveries: "agents list subscriptions; managing them is for people",
  subscription_redeliver: "an outbound target is a person's decision",
  subscription_recover: "an outbound target is a person's decision",
  // Agents see what waits on people (inbox_list, outcomes_list); only a person can say they saw it (ADR 0017).
  artifact_acknowledge: "only a person can acknowledge",
  // Rotating the server's signing key is an administrator's act; agents list keys and verify.
  keys_rotate: "administration",
  // A way in to the web for a person (SPEC §22): a model holding its user's token must not open a browser as them.
  signin_link_create: "signing a person in to the web is for people",
} as const satisfies Partial<Record<OperationName, string>>;

export type ToolName = Exclude<OperationName, keyof typeof NOT_TOOLS>;

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(OPERATIONS, name) && !Object.hasOwn(NOT_TOOLS, name);
}

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
