import type { Principal, TokenKind } from "../context.js";
import { CairnError } from "../errors.js";

/**
 * What an operation needs from the caller's token (SPEC §18). Every operation names one;
 * core checks it once, before the verb runs. Ownership and admin rules stay in the verbs:
 * a permission says what kind of act this is, not on whose data.
 */
export const PERMISSIONS = [
  "read",
  "receipts:write",
  "artifacts:write",
  "runs:write",
  "runs:delete",
  "artifacts:retain",
  "artifacts:assign",
  "artifacts:transfer",
  "policy:write",
  "teams:write",
  "tokens:write",
  "users:write",
  "acknowledgements:write",
  "decisions:write",
  "subscriptions:write",
  "keys:write",
  "sessions:write",
  "drops:dismiss",
  "notifications:write",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Agent tokens write receipts, artifacts and runs and read what their user may read.
 * Keeping a record, deleting a run, policies, teams, tokens, users, acknowledgements, answers to asks, subscriptions,
 * signing in to the web, and where a person is notified, are a person's decisions. Human tokens hold every permission.
 */
const AGENT_PERMISSIONS: ReadonlySet<Permission> = new Set(["read", "receipts:write", "artifacts:write", "runs:write"]);

export function tokenGrants(kind: TokenKind, permission: Permission): boolean {
  return kind === "human" || AGENT_PERMISSIONS.has(permission);
}

/** Throws 403 `forbidden` naming the permission the caller's token lacks. */
export function requirePermission(principal: Principal, permission: Permission): void {
  if (tokenGrants(principal.token.kind, permission)) return;
  throw new CairnError(
    "forbidden",
    `This ${principal.token.kind} token lacks the permission ${permission}: agent tokens may write receipts, artifacts and runs and read; use a human token.`,
  );
}
