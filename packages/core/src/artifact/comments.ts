import { z } from "zod";
import type { ServiceContext } from "../context.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { recordDrop } from "../drops/record.js";
import { CairnError, notFound } from "../errors.js";
import { recordEvent } from "../events/outbox.js";
import { actsFor } from "../identity/authorize.js";
import { newId } from "../ids.js";
import { LIMITS } from "../limits.js";
import { PAGE_FIELDS } from "../paging.js";
import { rejectionError } from "../receipt/create.js";
import { findSecrets } from "../secrets/scan.js";
import { storableId, storableString } from "../text.js";
import { findArtifact, isExpired, shareUrl } from "./internal.js";
import { gone } from "./read.js";
import { ArtifactReadInput } from "./schemas.js";

/** The longest comment, in characters (SPEC §34). */
export const COMMENT_MAX = 4_000;

export const CommentCreateInput = z.strictObject({
  id: ArtifactReadInput.shape.id,
  body: storableString().min(1).max(COMMENT_MAX).describe(`The comment, markdown, at most ${COMMENT_MAX} characters. Secret-scanned: a secret refuses it.`),
});

export const CommentListInput = z.strictObject({ id: ArtifactReadInput.shape.id, ...PAGE_FIELDS });

export const CommentDeleteInput = z.strictObject({
  id: ArtifactReadInput.shape.id,
  // Checked like every id (storable, bounded); an id no comment has is a 404 naming cid.
  cid: storableId(64, "The comment's id (`cmt_…`)."),
});

export const Comment = z.object({
  id: z.string().describe("Comment id, `cmt_…`."),
  artifact_id: z.string().describe("The artifact it is on."),
  author: z.string().describe("The user whose token wrote it."),
  token_name: z.string().describe("The token's name; for an agent, the agent's name."),
  agent: z.boolean().describe("True when an agent token wrote it: shown as the agent's comment."),
  body: z.string().nullable().describe("The markdown; null once deleted."),
  created_at: z.string().describe("When it was written."),
  deleted: z.object({ by: z.string(), at: z.string() }).nullable().describe("Who deleted it and when; null while it stands."),
});
export type Comment = z.output<typeof Comment>;

export const CommentList = z.object({ items: z.array(Comment), next_cursor: z.string().nullable() });

interface CommentRow {
  id: string;
  artifact_id: string;
  author: string;
  token_name: string;
  token_kind: string;
  body: string | null;
  created_at: Date;
  deleted_by: string | null;
  deleted_at: Date | null;
}

const COLUMNS = "id, artifact_id, author, token_name, token_kind, body, created_at, deleted_by, deleted_at";

const iso = (d: Date | string) => new Date(d).toISOString();

export function toComment(r: CommentRow): Comment {
  return {
    id: r.id,
    artifact_id: r.artifact_id,
    author: r.author,
    token_name: r.token_name,
    agent: r.token_kind === "agent",
    body: r.deleted_at ? null : r.body,
    created_at: iso(r.created_at),
    deleted: r.deleted_at && r.deleted_by ? { by: r.deleted_by, at: iso(r.deleted_at) } : null,
  };
}

/** The artifact, when the caller may read it; anyone else gets the 404 of a missing id. */
async function readable(ctx: ServiceContext, id: string) {
  const row = await findArtifact(ctx.store, id);
  if (!row || !actsFor(ctx.principal, row.owner)) throw notFound();
  if (isExpired(row, ctx.now())) throw gone();
  return row;
}

/**
 * comment_create (SPEC §34): anyone who may read the artifact comments on it, people and
 * agents alike. The body is scanned like a receipt field: a secret refuses the comment
 * (422 naming `body`) and leaves a drop receipt, whatever the owner's redact policy says —
 * a comment is words a person typed, and a redacted sentence is not what they meant.
 */
export async function createComment(ctx: ServiceContext, input: z.output<typeof CommentCreateInput>): Promise<Comment> {
  const row = await readable(ctx, input.id);
  const findings = await findSecrets([{ field: "body", value: input.body }], { entropy: false });
  if (findings.length > 0) {
    const rules = [...new Set(findings.map((f) => f.rule))].join(", ");
    const rejection = { category: "secret-detected" as const, issues: [{ field: "body", reason: `contains a secret (${rules})` }] };
    throw rejectionError(rejection, await recordDrop(ctx, { owner: row.owner }, rejection));
  }
  const now = ctx.now();
  const id = newId("cmt", now);
  const [stored] = await ctx.store.transaction(async (tx) => {
    const rows = await tx.query<CommentRow>(
      `insert into comments (id, artifact_id, author, token_name, token_kind, body, created_at) values ($1, $2, $3, $4, $5, $6, $7) returning ${COLUMNS}`,
      [id, row.id, ctx.principal.user.name, ctx.principal.token.name, ctx.principal.token.kind, input.body, now],
    );
    const by = { user: ctx.principal.user.name, token_name: ctx.principal.token.name };
    const data = {
      id: row.id,
      title: row.title,
      url: shareUrl(ctx.config, row.share_token),
      comment: { id, body: input.body, by, agent: ctx.principal.token.kind === "agent" },
    };
    await recordEvent(tx, { type: "artifact.commented", owner: row.owner, data }, now);
    return rows;
  });
  if (!stored) throw new CairnError("internal", "The comment was not stored.");
  return toComment(stored);
}

/** comment_list: the artifact's comments oldest first, tombstones in their place, paged like every list. */
export async function listComments(ctx: ServiceContext, input: z.output<typeof CommentListInput>): Promise<z.output<typeof CommentList>> {
  const row = await readable(ctx, input.id);
  const limit = input.limit ?? LIMITS.pageDefault;
  const after = input.cursor === undefined ? "" : decodeCursor(input.cursor, "cmt");
  const rows = await ctx.store.query<CommentRow>(`select ${COLUMNS} from comments where artifact_id = $1 and id > $2 order by id limit $3`, [
    row.id,
    after,
    limit + 1,
  ]);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(toComment), next_cursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}

/**
 * comment_delete: the author, the owner user of a personal artifact, or an administrator
 * deletes a comment. Its words go; a tombstone says who and when. Anyone
 * else who may read it gets 403; an outsider the 404 of a missing id.
 */
export async function deleteComment(ctx: ServiceContext, input: z.output<typeof CommentDeleteInput>): Promise<Comment> {
  const row = await readable(ctx, input.id);
  const [found] = await ctx.store.query<CommentRow>(`select ${COLUMNS} from comments where id = $1 and artifact_id = $2`, [input.cid, row.id]);
  if (!found) throw notFound("comment", "cid");
  const owner = ctx.principal.user.is_admin || row.owner === `user:${ctx.principal.user.name}`;
  if (found.author !== ctx.principal.user.name && !owner) {
    const issue = { field: "cid", reason: "only its author or the receipt's owner may delete a comment" };
    throw new CairnError("forbidden", `cid: ${issue.reason}.`, { issues: [issue] });
  }
  if (found.deleted_at) return toComment(found);
  const [deleted] = await ctx.store.query<CommentRow>(
    `update comments set body = null, deleted_by = $2, deleted_at = $3 where id = $1 and deleted_at is null returning ${COLUMNS}`,
    [found.id, ctx.principal.user.name, ctx.now()],
  );
  const [now] = deleted ? [deleted] : await ctx.store.query<CommentRow>(`select ${COLUMNS} from comments where id = $1`, [found.id]);
  if (!now) throw notFound("comment", "cid");
  return toComment(now);
}
