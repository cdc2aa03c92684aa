import { DEFAULT_TTL_DAYS, findArtifact, insertArtifact, provenanceOf, shareUrl, toArtifact } from "../artifact/internal.js";
import type { CreatedArtifact } from "../artifact/schemas.js";
import type { ServiceContext } from "../context.js";
import { summarizeDrop } from "../drops/classification.js";
import { CairnError, describeIssues, type ExistingArtifactRef } from "../errors.js";
import { resolveOwner } from "../identity/owner.js";
import type { Sql } from "../store/port.js";
import { renderValidReceipt } from "./prepare.js";
import { RECEIPT_SCHEMA_ID } from "./schemas.js";
import { type Rejection, validateReceiptInput } from "./validate.js";

const DUPLICATE_WINDOW_MS = 24 * 3_600_000;

/** Turns a gate's rejection into the error every surface shows. */
export function rejectionError(rejection: Rejection, existing?: ExistingArtifactRef): CairnError {
  const drop = summarizeDrop(rejection.category, rejection.issues);
  switch (rejection.category) {
    case "unknown-schema":
      return new CairnError("unknown_schema", describeIssues(rejection.issues), { issues: rejection.issues, drop });
    case "duplicate":
      return new CairnError("duplicate", `An identical receipt from the same owner was stored in the last 24 hours${existing ? ` (${existing.id})` : ""}.`, {
        issues: rejection.issues,
        drop,
        ...(existing && { existing }),
      });
    default:
      return new CairnError("validation_failed", describeIssues(rejection.issues), { issues: rejection.issues, drop });
  }
}

/** foreign-link gate: `follows` must name a receipt of the same owner. */
async function followsRejection(sql: Sql, owner: string, follows: string | undefined): Promise<Rejection | null> {
  if (follows === undefined) return null;
  const target = await findArtifact(sql, follows);
  const ok = target?.owner === owner && target.metadata?.schema === RECEIPT_SCHEMA_ID;
  return ok ? null : { category: "foreign-link", issues: [{ field: "follows", reason: "names no receipt of the same owner" }] };
}

/**
 * receipt_create: static gates, owner, follows, render, then duplicate check and insert
 * in one transaction. The advisory lock on (owner, checksum) makes two identical
 * concurrent submissions store one receipt and refuse the other as a duplicate.
 */
export async function createReceipt(ctx: ServiceContext, raw: unknown): Promise<CreatedArtifact> {
  const validation = validateReceiptInput(raw);
  if (!validation.ok) throw rejectionError(validation.rejection);
  const valid = validation.value;
  const owner = resolveOwner(ctx.principal, valid.owner);

  const foreign = await followsRejection(ctx.store, owner, valid.metadata.follows);
  if (foreign) throw rejectionError(foreign);

  const prepared = renderValidReceipt(valid);
  const now = ctx.now();
  const outcome = await ctx.store.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock(hashtext($1))", [`${owner} ${prepared.checksum}`]);
    const [dup] = await tx.query<{ id: string; share_token: string }>(
      `select id, share_token from artifacts
        where owner = $1 and checksum = $2 and metadata is not null and created_at > $3
        order by created_at desc limit 1`,
      [owner, prepared.checksum, new Date(now.getTime() - DUPLICATE_WINDOW_MS).toISOString()],
    );
    if (dup) return { duplicate: { id: dup.id, url: shareUrl(ctx.config, dup.share_token) } } as const;
    const row = await insertArtifact(tx, now, DEFAULT_TTL_DAYS, {
      owner,
      title: prepared.title,
      share_type: "markdown",
      body: prepared.body,
      checksum: prepared.checksum,
      tags: prepared.tags,
      metadata: prepared.metadata,
      provenance: provenanceOf(ctx, prepared.model),
      follows: prepared.metadata.follows ?? null,
    });
    return { row } as const;
  });

  if ("duplicate" in outcome) {
    throw rejectionError({ category: "duplicate", issues: [] }, outcome.duplicate);
  }
  const viewer = { kind: "principal", principal: ctx.principal } as const;
  return { ...(await toArtifact(ctx.store, ctx.config, viewer, outcome.row)), redactions: [] };
}
