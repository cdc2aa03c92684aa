import { authorizeRead, type Viewer } from "../identity/authorize.js";
import type { Artifact } from "./schemas.js";

interface LinkSource {
  id: string;
  owner: string;
  follows: string | null;
}

export interface VisibleLinks {
  follows: Artifact["follows"];
  produced_by: Artifact["produced_by"];
  followed_by: Artifact["followed_by"];
  /** Whether any receipt of the same owner follows it, readable or not: the outcome rule's "measured" (inbox/rules.ts). */
  followed: boolean;
}

export const NO_LINKS: VisibleLinks = { follows: null, produced_by: [], followed_by: [], followed: false };

/** What `cairn_artifact_extras` reads for a page of rows: every candidate link, before §9's rule picks the visible ones. */
export interface LinkCandidates {
  /** The receipts the rows follow. */
  targets: Array<{ id: string; owner: string; share_token: string }>;
  /** Runs linked to a row by a span that named it or by the trace id it named, by artifact then run id. */
  producers: Array<{ artifact_id: string; id: string; name: string; owner: string }>;
  /** Receipts that follow a row, oldest id first. */
  followers: Array<{ id: string; owner: string; follows: string; share_token: string }>;
}

/**
 * SPEC §9, the one rule for both links: a linked run or receipt is shown only when it has
 * the artifact's owner (so a stranger cannot attach theirs to yours) and the viewer
 * passes authorizeRead on it (so a link holder never learns an id they could not open —
 * runs have no share links, so a link holder sees no run at all). A run is linked by a
 * span that named the artifact, or by the trace id the receipt named (`trace_links`).
 * `followed_by` lists who follows each, oldest first.
 */
export function visibleLinks(viewer: Viewer, rows: readonly LinkSource[], found: LinkCandidates): VisibleLinks[] {
  const { targets, producers, followers } = found;
  const byId = new Map(targets.map((t) => [t.id, t]));
  return rows.map((row) => {
    const target = row.follows ? byId.get(row.follows) : undefined;
    const follows = target && target.owner === row.owner && authorizeRead(viewer, target) ? { id: target.id } : null;
    const produced_by = producers
      .filter((run) => run.artifact_id === row.id && run.owner === row.owner && authorizeRead(viewer, run))
      .map((run) => ({ id: run.id, name: run.name }));
    const sameOwner = followers.filter((f) => f.follows === row.id && f.owner === row.owner);
    const followed_by = sameOwner.filter((f) => authorizeRead(viewer, f)).map((f) => f.id);
    return { follows, produced_by, followed_by, followed: sameOwner.length > 0 };
  });
}
