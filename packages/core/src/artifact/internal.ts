import type { CairnConfig, ServiceContext } from "../context.js";
import type { Ask, Decision } from "../decision/schemas.js";
import { type Issue, validationFailed } from "../errors.js";
import type { Viewer } from "../identity/authorize.js";
import { newId, newShareToken } from "../ids.js";
import { type AcknowledgementRow, toAcknowledgement } from "../inbox/acknowledgement.js";
import type { Sql } from "../store/port.js";
import { type LinkCandidates, NO_LINKS, type VisibleLinks, visibleLinks } from "./links.js";
import type { Artifact, Provenance } from "./schemas.js";
import { SHARE_PATH } from "./share-link.js";

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
  /** The one user who must act (SPEC §20), by name; null when nobody is assigned. */
  assignee: string | null;
  /** The question a receipt asks with fixed answers (SPEC §32), or null; live state beside the immutable body. */
  ask?: Ask | null;
  /** The answer to the ask, or its expiry; null while open or without an ask. */
  decision?: Decision | null;
  /** A receipt's `details` as stored (after redaction), or null: what the body's Details section was rendered from. */
  details?: string | null;
}

export const ARTIFACT_COLUMNS =
  "id, owner, title, share_type, body, checksum, tags, metadata, provenance, follows, share_token, created_at, expires_at, retained, details, assignee, ask, decision";

const DAY_MS = 86_400_000;

const iso = (v: Date | string) => new Date(v).toISOString();

export const shareUrl = (config: CairnConfig, token: string) => `${config.publicUrl}${SHARE_PATH}${token}`;

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

const EXTRAS = "select cairn_artifact_extras($1::text[], $2::text[], $3::text[]) as extras";

/**
 * Maps stored rows to the artifact object, with §9's links filtered for this viewer and
 * §15's acknowledgements, a page at a time: one call of `cairn_artifact_extras`, whose
 * plans each session keeps (ADR 0069). Only receipts can be followed or acknowledged.
 */
export async function toArtifacts(sql: Sql, config: CairnConfig, viewer: Viewer, rows: readonly ArtifactRow[]): Promise<Artifact[]> {
  if (rows.length === 0) return [];
  const distinct = (values: Iterable<string>) => [...new Set(values)];
  const [answer] = await sql.query<{ extras: LinkCandidates & { acknowledgements: AcknowledgementRow[] } }>(EXTRAS, [
    distinct(rows.map((r) => r.id)),
    distinct(rows.flatMap((r) => (r.follows ? [r.follows] : []))),
    distinct(rows.filter((r) => r.metadata !== null).map((r) => r.id)),
  ]);
  if (!answer) throw new Error("cairn_artifact_extras returned nothing");
  const { extras } = answer;
  const links = visibleLinks(viewer, rows, extras);
  const acknowledgements = new Map<string, Acknowledgements>();
  for (const { artifact_id, ...ack } of extras.acknowledgements) {
    const list = acknowledgements.get(artifact_id);
    if (list) list.push(toAcknowledgement(ack));
    else acknowledgements.set(artifact_id, [toAcknowledgement(ack)]);
  }
  return rows.map((row, i) => mapRow(config, row, links[i] ?? NO_LINKS, acknowledgements.get(row.id) ?? []));
}

type Acknowledgements = Artifact["acknowledgements"];

/**
 * The artifact as the holder of its own share link sees it, from a row that carries its
 * acknowledgements and whether a receipt of its owner follows it (`readLinkHolderRow`).
 * Visibility needs no lookup here: §9's rule gives a link holder no run (runs have no
 * share links) and no other receipt (each has its own token), so `follows`,
 * `produced_by` and `followed_by` are empty by the same rule `visibleLinks` applies.
 */
export function toLinkHolderArtifact(config: CairnConfig, row: LinkHolderRow): Artifact {
  const acknowledgements = (row.acknowledgements ?? []).map(toAcknowledgement);
  return mapRow(config, row, { ...NO_LINKS, followed: row.followed }, acknowledgements);
}

export interface LinkHolderRow extends ArtifactRow {
  followed: boolean;
  acknowledgements: Array<Parameters<typeof toAcknowledgement>[0]> | null;
}

function mapRow(config: CairnConfig, row: ArtifactRow, link: VisibleLinks, acknowledgements: Acknowledgements): Artifact {
  return {
    id: row.id,
    title: row.title,
    share_type: row.share_type,
    body: row.body,
    checksum: row.checksum,
    tags: row.tags,
    metadata: visibleMetadata(row, link.follows),
    owner: row.owner,
    provenance: row.provenance,
    follows: link.follows,
    // Copies: NO_LINKS is shared by every new artifact.
    produced_by: [...link.produced_by],
    url: shareUrl(config, row.share_token),
    created_at: iso(row.created_at),
    expires_at: row.expires_at === null ? null : iso(row.expires_at),
    retained: row.retained,
    acknowledgements,
    assignee: row.assignee ?? null,
    ask: row.ask ?? null,
    decision: row.decision ?? null,
    followed_by: [...link.followed_by],
    followed: link.followed,
  };
}

/**
 * The answer for a row the receipt write just inserted: its id was unknown until now, so
 * nobody acknowledged it, nothing follows it and no span named it. The write accepted its
 * `follows` only as a live receipt of the same owner, which the creator acts for, so the
 * link is shown without a look-up; a run is there when the receipt named its trace and the
 * run already existed (read before the write).
 */
export function newArtifactAnswer(config: CairnConfig, row: ArtifactRow, producedBy: Artifact["produced_by"]): Artifact {
  return mapRow(config, row, { ...NO_LINKS, follows: row.follows === null ? null : { id: row.follows }, produced_by: producedBy }, []);
}

export async function toArtifact(sql: Sql, config: CairnConfig, viewer: Viewer, row: ArtifactRow): Promise<Artifact> {
  const [artifact] = await toArtifacts(sql, config, viewer, [row]);
  if (!artifact) throw new Error("mapping returned no artifact");
  return artifact;
}

/** What a write supplies; the store assigns id, share token, times and retention. */
export type NewArtifact = Omit<ArtifactRow, "id" | "share_token" | "created_at" | "expires_at" | "retained" | "metadata" | "assignee" | "decision"> & {
  metadata: Record<string, unknown> | null;
  assignee?: string | null;
};

/**
 * When a new artifact expires: after the owner's TTL, or sooner when the caller asked for
 * `expires_in` seconds (at least 60, at most the TTL — a longer life is `retain`).
 */
export function expiryOf(now: Date, ttlDays: number, expiresIn: number | undefined): Date {
  if (expiresIn === undefined) return new Date(now.getTime() + ttlDays * DAY_MS);
  const issue = expiresInIssue(ttlDays, expiresIn);
  if (issue) throw validationFailed([issue]);
  return new Date(now.getTime() + expiresIn * 1000);
}

/** The issue when `expires_in` asks for a longer life than the owner's TTL, else null. */
export function expiresInIssue(ttlDays: number, expiresIn: number | undefined): Issue | null {
  const maxSeconds = ttlDays * 86_400;
  if (expiresIn === undefined || expiresIn <= maxSeconds) return null;
  return { field: "expires_in", reason: `must be at most the owner's TTL of ${ttlDays} days (${maxSeconds} seconds)`, limit: maxSeconds };
}

/** The row a write will store: the store assigns nothing, so the caller knows it before the insert. */
export function newArtifactRow(now: Date, expiresAt: Date, a: NewArtifact): ArtifactRow {
  return {
    id: newId("art", now),
    ...a,
    metadata: a.metadata as ArtifactRow["metadata"],
    details: a.details ?? null,
    share_token: newShareToken(),
    created_at: now,
    expires_at: expiresAt,
    retained: false,
    assignee: a.assignee ?? null,
    ask: a.ask ?? null,
    decision: null,
  };
}

/**
 * The argument of `cairn_insert_artifact` (store/sql): json columns as the text Cairn
 * serialised; a receipt's search text, its schema's choice of words (ADR 0074; without
 * one, as for a plain artifact, the function indexes title and body); with an assignee,
 * the `artifact.assigned` event it records too. The due time is not passed: the function
 * reads it from the metadata (cairn_measure_due_at).
 */
export function artifactInsertArgument(row: ArtifactRow, searchText: string | null, assignedEvent?: Record<string, string>): Record<string, unknown> {
  return {
    id: row.id,
    owner: row.owner,
    title: row.title,
    share_type: row.share_type,
    body: row.body,
    checksum: row.checksum,
    tags: row.tags,
    metadata: row.metadata === null ? null : JSON.stringify(row.metadata),
    provenance: JSON.stringify(row.provenance),
    follows: row.follows,
    share_token: row.share_token,
    created_at: iso(row.created_at),
    expires_at: row.expires_at === null ? null : iso(row.expires_at),
    details: row.details ?? null,
    assignee: row.assignee,
    ...(row.ask && { ask: row.ask }),
    ...(searchText !== null && { search_text: searchText }),
    ...(assignedEvent && { assigned_event: assignedEvent }),
  };
}

export async function insertArtifact(
  sql: Sql,
  now: Date,
  expiresAt: Date,
  a: NewArtifact,
  assignedEvent?: (row: ArtifactRow) => Record<string, string>,
): Promise<ArtifactRow> {
  const row = newArtifactRow(now, expiresAt, a);
  await sql.query("select cairn_insert_artifact($1::jsonb)", [JSON.stringify(artifactInsertArgument(row, null, assignedEvent?.(row)))]);
  return row;
}

export async function findArtifact(sql: Sql, id: string): Promise<ArtifactRow | undefined> {
  const [row] = await sql.query<ArtifactRow>(`select ${ARTIFACT_COLUMNS} from artifacts where id = $1`, [id]);
  return row;
}
