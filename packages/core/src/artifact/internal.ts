import type { CairnConfig, ServiceContext } from "../context.js";
import type { Viewer } from "../identity/authorize.js";
import { newId, newShareToken } from "../ids.js";
import type { Sql } from "../store/port.js";
import { type VisibleLinks, visibleLinks } from "./links.js";
import type { Artifact, Provenance } from "./schemas.js";

export interface ArtifactRow {
  id: string;
  owner: string;
  title: string;
  share_type: Artifact["share_type"];
  body: string;
  checksum: string;
  tags: string[];
  metadata: Artifact["metadata"];
  provenance: Provenance;
  follows: string | null;
  share_token: string;
  created_at: Date | string;
  expires_at: Date | string | null;
  retained: boolean;
}

export const ARTIFACT_COLUMNS =
  "id, owner, title, share_type, body, checksum, tags, metadata, provenance, follows, share_token, created_at, expires_at, retained";

const DAY_MS = 86_400_000;

const iso = (v: Date | string) => new Date(v).toISOString();

export const shareUrl = (config: CairnConfig, token: string) => `${config.publicUrl}/s/${token}`;

export function isExpired(row: Pick<ArtifactRow, "expires_at" | "retained">, now: Date): boolean {
  return !row.retained && row.expires_at !== null && new Date(row.expires_at).getTime() <= now.getTime();
}

export function provenanceOf(ctx: ServiceContext, model: string | undefined): Provenance {
  const { token, user } = ctx.principal;
  return {
    actor: { id: token.id, name: token.name, kind: token.kind },
    on_behalf_of: user.name,
    model: model ?? null,
    surface: ctx.surface,
  };
}

/**
 * The metadata's own `follows` answer is held to the same rule as the `follows` link: a
 * viewer who may not read the followed receipt does not learn its id from metadata either.
 */
function visibleMetadata(row: ArtifactRow, visible: Artifact["follows"]): Artifact["metadata"] {
  if (!row.metadata || row.metadata.follows === undefined || visible !== null) return row.metadata;
  const { follows: _hidden, ...rest } = row.metadata;
  return rest as Artifact["metadata"];
}

/** Maps stored rows to the artifact object, with §9's links filtered for this viewer. */
export async function toArtifacts(sql: Sql, config: CairnConfig, viewer: Viewer, rows: readonly ArtifactRow[]): Promise<Artifact[]> {
  return toArtifactsWith(config, rows, await visibleLinks(sql, viewer, rows));
}

function toArtifactsWith(config: CairnConfig, rows: readonly ArtifactRow[], links: readonly VisibleLinks[]): Artifact[] {
  return rows.map((row, i) => ({
    id: row.id,
    title: row.title,
    share_type: row.share_type,
    body: row.body,
    checksum: row.checksum,
    tags: row.tags,
    metadata: visibleMetadata(row, links[i]?.follows ?? null),
    owner: row.owner,
    provenance: row.provenance,
    follows: links[i]?.follows ?? null,
    produced_by: links[i]?.produced_by ?? [],
    url: shareUrl(config, row.share_token),
    created_at: iso(row.created_at),
    expires_at: row.expires_at === null ? null : iso(row.expires_at),
    retained: row.retained,
  }));
}

export async function toArtifact(sql: Sql, config: CairnConfig, viewer: Viewer, row: ArtifactRow): Promise<Artifact> {
  const [artifact] = await toArtifacts(sql, config, viewer, [row]);
  if (!artifact) throw new Error("mapping returned no artifact");
  return artifact;
}

/**
 * A row this transaction just inserted: no run can have produced it yet (its id was
 * unknown until now), so without `follows` there is no link to look up — one query less
 * on every write. With `follows`, the link is resolved as on every read.
 */
export async function toNewArtifact(sql: Sql, config: CairnConfig, viewer: Viewer, row: ArtifactRow): Promise<Artifact> {
  if (row.follows !== null) return toArtifact(sql, config, viewer, row);
  const [artifact] = toArtifactsWith(config, [row], [{ follows: null, produced_by: [] }]);
  if (!artifact) throw new Error("mapping returned no artifact");
  return artifact;
}

/** What a write supplies; the store assigns id, share token, times and retention. */
export type NewArtifact = Omit<ArtifactRow, "id" | "share_token" | "created_at" | "expires_at" | "retained" | "metadata"> & {
  metadata: Record<string, unknown> | null;
};

const INSERT_COLUMNS = `id, owner, title, share_type, body, checksum, tags, metadata, provenance, follows,
                        share_token, created_at, expires_at`;
const INSERT_VALUES = "$1, $2, $3, $4, $5, $6, $7::jsonb, $8::json, $9::json, $10::text, $11, $12::timestamptz, $13::timestamptz";

function insertParams(now: Date, ttlDays: number, a: NewArtifact): unknown[] {
  return [
    newId("art", now),
    a.owner,
    a.title,
    a.share_type,
    a.body,
    a.checksum,
    JSON.stringify(a.tags),
    a.metadata === null ? null : JSON.stringify(a.metadata),
    JSON.stringify(a.provenance),
    a.follows,
    newShareToken(),
    now.toISOString(),
    new Date(now.getTime() + ttlDays * DAY_MS).toISOString(),
  ];
}

export async function insertArtifact(sql: Sql, now: Date, ttlDays: number, a: NewArtifact): Promise<ArtifactRow> {
  const [row] = await sql.query<ArtifactRow>(
    `insert into artifacts (${INSERT_COLUMNS}) values (${INSERT_VALUES}) returning ${ARTIFACT_COLUMNS}`,
    insertParams(now, ttlDays, a),
  );
  if (!row) throw new Error("insert returned no row");
  return row;
}

/**
 * The duplicate check and the insert as one statement: inserts unless the owner stored a
 * receipt with the same checksum and `follows` after `since`; undefined when it did. The
 * caller holds the (owner, checksum) lock, taken in an earlier statement so this one's
 * snapshot sees every receipt committed before the lock was granted.
 */
export async function insertArtifactUnlessDuplicate(
  sql: Sql,
  now: Date,
  ttlDays: number,
  a: NewArtifact,
  since: Date,
): Promise<ArtifactRow | undefined> {
  const [row] = await sql.query<ArtifactRow>(
    `insert into artifacts (${INSERT_COLUMNS})
     select ${INSERT_VALUES}
      where not exists (select 1 from artifacts
                         where owner = $2 and checksum = $6 and metadata is not null and created_at > $14::timestamptz
                           and follows is not distinct from $10::text)
     returning ${ARTIFACT_COLUMNS}`,
    [...insertParams(now, ttlDays, a), since.toISOString()],
  );
  return row;
}

export async function findArtifact(sql: Sql, id: string): Promise<ArtifactRow | undefined> {
  const [row] = await sql.query<ArtifactRow>(`select ${ARTIFACT_COLUMNS} from artifacts where id = $1`, [id]);
  return row;
}
