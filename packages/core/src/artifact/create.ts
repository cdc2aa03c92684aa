import type { z } from "zod";
import { checksumOf } from "../checksum.js";
import type { ServiceContext } from "../context.js";
import { validationFailed } from "../errors.js";
import { resolveOwner } from "../identity/owner.js";
import { normalizeTags } from "../tags.js";
import { loadPolicy } from "../policy/store.js";
import { insertArtifact, provenanceOf, toNewArtifact } from "./internal.js";
import type { ArtifactCreateInput, CreatedArtifact } from "./schemas.js";

/** Creates a plain artifact (expiring after the owner's default_ttl_days). It takes no metadata: only a schema's own verb writes metadata. */
export async function createArtifact(
  ctx: ServiceContext,
  input: z.output<typeof ArtifactCreateInput>,
): Promise<CreatedArtifact> {
  if (input.share_type === "json") {
    try {
      JSON.parse(input.body);
    } catch {
      throw validationFailed([{ field: "body", reason: "is not valid JSON (share_type is json)" }]);
    }
  }
  const owner = resolveOwner(ctx.principal, input.owner);
  const now = ctx.now();
  const { default_ttl_days } = await loadPolicy(ctx.store, owner);
  const row = await insertArtifact(ctx.store, now, default_ttl_days, {
    owner,
    title: input.title,
    share_type: input.share_type,
    body: input.body,
    checksum: checksumOf(input.body),
    tags: normalizeTags(input.tags ?? []),
    metadata: null,
    provenance: provenanceOf(ctx, input.model),
    follows: null,
  });
  const viewer = { kind: "principal", principal: ctx.principal } as const;
  return { ...(await toNewArtifact(ctx.store, ctx.config, viewer, row)), redactions: [], warnings: [] };
}
