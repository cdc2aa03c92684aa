import { type ArtifactRow, shareUrl } from "../artifact/internal.js";
import type { CairnConfig } from "../context.js";
import type { Sql } from "../store/port.js";
import { recordEvent } from "./outbox.js";
import type { EventData } from "./schemas.js";

const iso = (v: Date | string) => new Date(v).toISOString();

/** §10's `data` of artifact.created, from the stored row: `metadata` (as stored) only when there is some. */
export function artifactCreatedData(config: CairnConfig, row: ArtifactRow): EventData<"artifact.created"> {
  return {
    id: row.id,
    title: row.title,
    url: shareUrl(config, row.share_token),
    share_type: row.share_type,
    tags: row.tags,
    owner: row.owner,
    provenance: row.provenance,
    created_at: iso(row.created_at),
    expires_at: row.expires_at === null ? null : iso(row.expires_at),
    ...(row.metadata !== null && { metadata: row.metadata }),
  };
}

/** Announces a stored artifact; call it in the transaction that inserted the row. */
export function recordArtifactCreated(tx: Sql, config: CairnConfig, row: ArtifactRow, now: Date): Promise<string> {
  return recordEvent(tx, { type: "artifact.created", owner: row.owner, data: artifactCreatedData(config, row) }, now);
}
