import type { Principal } from "../context.js";
import { parseOwner } from "./names.js";

/** Someone reading: a signed-in principal, or a holder of a share link. */
export type Viewer = { kind: "principal"; principal: Principal } | { kind: "link"; shareToken: string };

export interface Ownable {
  owner: string;
  share_token?: string | null;
}

/** The owner user and members of the owner team may act for an owner. */
export function actsFor(principal: Principal, owner: string): boolean {
  const { kind, name } = parseOwner(owner);
  return kind === "user" ? principal.user.name === name : principal.teams.includes(name);
}

/**
 * The one read rule, used by every surface: the owner user, members of the owner team,
 * or a holder of the thing's share link. An id alone grants nothing.
 */
export function authorizeRead(viewer: Viewer, thing: Ownable): boolean {
  if (viewer.kind === "principal") return actsFor(viewer.principal, thing.owner);
  return typeof thing.share_token === "string" && thing.share_token === viewer.shareToken;
}

/** Owners whose artifacts a principal may list: themselves and their teams. */
export function visibleOwners(principal: Principal): string[] {
  return [`user:${principal.user.name}`, ...principal.teams.map((t) => `team:${t}`)];
}
