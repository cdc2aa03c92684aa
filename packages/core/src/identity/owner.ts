import type { Principal } from "../context.js";
import { CairnError, type Issue } from "../errors.js";
import { actsFor } from "./authorize.js";

/** Why a principal may not use an owner, or null when it may (the owner user, or a member of the owner team). */
export function ownerIssue(principal: Principal, owner: string, doing = "create"): Issue | null {
  if (actsFor(principal, owner)) return null;
  const reason = owner.startsWith("team:") ? `you are not a member of ${owner}` : `you can only ${doing} for yourself or a team you belong to`;
  return { field: "owner", reason };
}

/** The owner a request targets: the one asked for, checked against membership, else the caller. Throws `forbidden`. */
export function resolveOwner(principal: Principal, requested: string | undefined, doing = "create"): string {
  if (requested === undefined) return `user:${principal.user.name}`;
  const issue = ownerIssue(principal, requested, doing);
  if (!issue) return requested;
  throw new CairnError("forbidden", `owner: ${issue.reason}.`, { issues: [issue] });
}
