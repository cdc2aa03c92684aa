import { authorizeRead, type Viewer } from "../identity/authorize.js";
import type { Sql } from "../store/port.js";
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

const ids = (values: Iterable<string>) => JSON.stringify([...new Set(values)]);

/**
 * SPEC §9, the one rule for both links: a linked run or receipt is shown only when it has
 * the artifact's owner (so a stranger cannot attach theirs to yours) and the viewer
 * passes authorizeRead on it (so a link holder never learns an id they could not open —
 * runs have no share links, so a link holder sees no run at all). A run is linked by a
 * span that named the artifact, or by the trace id the receipt named (`trace_links`).
 * Resolved for a whole page in three queries (the third: who follows each, `followed_by`,
 * oldest first).
 */
export async function visibleLinks(sql: Sql, viewer: Viewer, rows: readonly LinkSource[]): Promise<VisibleLinks[]> {
  const followed = rows.flatMap((r) => (r.follows ? [r.follows] : []));
  const [targets, producers, followers] = await Promise.all([
    followed.length === 0
      ? []
      : sql.query<{ id: string; owner: string; share_token: string }>(
          "select id, owner, share_token from artifacts where id in (select jsonb_array_elements_text($1::jsonb))",
          [ids(followed)],
        ),
    rows.length === 0
      ? []
      : sql.query<{ artifact_id: string; id: string; name: string; owner: string }>(
          `select e.artifact_id, r.id, r.name, r.owner
             from produced_edges e join runs r on r.id = e.run_id
            where e.artifact_id in (select jsonb_array_elements_text($1::jsonb))
           union
           select t.artifact_id, r.id, r.name, r.owner
             from trace_links t join runs r on r.owner = t.owner and r.trace_id = t.trace_id
            where t.artifact_id in (select jsonb_array_elements_text($1::jsonb))
            order by 1, 2`,
          [ids(rows.map((r) => r.id))],
        ),
    // Only receipts can be followed (the follows gate), so plain artifacts need no lookup.
    rows.length === 0
      ? []
      : sql.query<{ id: string; owner: string; follows: string; share_token: string }>(
          `select id, owner, follows, share_token from artifacts
            where follows in (select jsonb_array_elements_text($1::jsonb)) order by follows, id`,
          [ids(rows.map((r) => r.id))],
        ),
  ]);
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
