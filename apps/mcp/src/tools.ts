import type { OperationName } from "@cairn/core";

/** How one core operation appears as an MCP tool. */
export interface ToolSpec {
  /** Short human-facing name shown by MCP clients. */
  title: string;
  /** Repeating the same call has no further effect (MCP `idempotentHint`). */
  idempotent: boolean;
}

/**
 * Which core operations are MCP tools. Typed as a total record over OperationName, so an
 * operation added to core does not compile until MCP decides: a spec makes it a tool,
 * null keeps it off this surface. Administration (users, tokens, `me`) stays on REST and
 * the CLI: an agent's token should not be able to mint more tokens through its tool list.
 */
export const TOOLS: { readonly [N in OperationName]: ToolSpec | null } = {
  receipt_create: { title: "Leave a receipt", idempotent: false },
  artifact_create: { title: "Store an artifact", idempotent: false },
  artifact_read: { title: "Read an artifact", idempotent: true },
  artifact_search: { title: "Search artifacts", idempotent: true },
  // Keeping a record forever is a person's decision; an export stream is not a tool call.
  artifact_retain: null,
  artifact_export: null,
  run_create: { title: "Start a run", idempotent: false },
  run_append_spans: { title: "Append spans to a run", idempotent: true },
  run_close: { title: "Close a run", idempotent: true },
  run_read: { title: "Read a run", idempotent: true },
  drops_list: { title: "List refused submissions (drop receipts)", idempotent: true },
  doctor: { title: "Check Cairn's health for you", idempotent: true },
  status: { title: "Last receipt and refusals this week", idempotent: true },
  policy_get: { title: "Read an owner's policy", idempotent: true },
  policy_set: { title: "Change an owner's policy", idempotent: true },
  me: null,
  user_create: null,
  token_create: null,
  token_list: null,
  token_revoke: null,
  // Team membership changes who can read what: kept for people, on REST and the CLI.
  team_create: null,
  team_read: null,
  team_member_add: null,
  team_member_remove: null,
  keys_list: { title: "List the server's public signing keys", idempotent: true },
  // Rotating the signing key is an administrator's decision.
  keys_rotate: null,
  receipt_verify: { title: "Verify a receipt or an exported line", idempotent: true },
  // An agent may see where its owner's events go; creating or changing an outbound target is a person's decision (SPEC §18).
  subscription_list: { title: "List webhook subscriptions", idempotent: true },
  subscription_create: null,
  subscription_read: null,
  subscription_delete: null,
  subscription_enable: null,
  subscription_deliveries: null,
  subscription_redeliver: null,
  subscription_recover: null,
  // Agents see what waits on people; only a person can say they saw it (ADR 0017).
  inbox_list: { title: "List what waits on people", idempotent: true },
  outcomes_list: { title: "List outcomes that come due", idempotent: true },
  artifact_acknowledge: null,
};

export type ToolName = { [N in OperationName]: (typeof TOOLS)[N] extends null ? never : N }[OperationName];

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(TOOLS, name) && TOOLS[name as OperationName] !== null;
}

export const toolNames = (): ToolName[] => (Object.keys(TOOLS) as OperationName[]).filter(isToolName);

/** Every tool with its spec, in registry order. */
export const toolEntries = (): Array<[ToolName, ToolSpec]> =>
  Object.entries(TOOLS).flatMap(([name, spec]) => (spec ? [[name as ToolName, spec] as [ToolName, ToolSpec]] : []));
