import type { ServiceContext } from "../context.js";
import { notFound } from "../errors.js";
import { actsFor } from "../identity/authorize.js";
import { ARTIFACT_COLUMNS, type ArtifactRow, findArtifact, isExpired, toArtifact } from "./internal.js";
import { gone } from "./read.js";
import type { Artifact } from "./schemas.js";

/**
 * Makes an artifact permanent (`retained: true`, `expires_at: null`). Only the owner user
 * or members of the owner team may; anyone else gets the same 404 as for a missing id.
 * Retaining twice is harmless. The update re-checks expiry, so an artifact that expires
 * between the read and the write is reported gone rather than revived.
 */
export async function retainArtifact(ctx: ServiceContext, input: { id: string }): Promise<Artifact> {
  const row = await findArtifact(ctx.store, input.id);
  if (!row || !actsFor(ctx.principal, row.owner)) throw notFound();
  const now = ctx.now();
  if (isExpired(row, now)) throw gone();
  const [kept] = await ctx.store.query<ArtifactRow>(
    `update artifacts set retained = true, expires_at = null
      where id = $1 and (retained or expires_at is null or expires_at > $2)
      returning ${ARTIFACT_COLUMNS}`,
    [row.id, now.toISOString()],
  );
  if (!kept) throw gone();
  return toArtifact(ctx.store, ctx.config, { kind: "principal", principal: ctx.principal }, kept);
}
