import type { Principal } from "../context.js";
import { CairnError } from "../errors.js";
import { actsFor } from "./authorize.js";

/** The owner a write targets: the one asked for, checked against membership, else the caller. */
export function resolveOwner(principal: Principal, requested: string | undefined): string {
  if (requested === undefined) return `user:${principal.user.name}`;
  if (actsFor(principal, requested)) return requested;
  const reason = requested.startsWith("team:")
    ? `you are not a member of ${requested}`
    : "you can only create for yourself or a team you belong to";
  throw new CairnError("forbidden", `owner: ${reason}.`, { issues: [{ field: "owner", reason }] });
}
