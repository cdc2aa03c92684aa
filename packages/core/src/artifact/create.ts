import type { z } from "zod";
import { checksumOf } from "../checksum.js";
import type { ServiceContext } from "../context.js";
import { validationFailed } from "../errors.js";
import { recordArtifactCreated } from "../events/artifact-event.js";
import { ringOutbox } from "../events/wake.js";
import { resolveOwner } from "../identity/owner.js";
import { loadPolicy } from "../policy/store.js";
import { applySecretRules } from "../secrets/policy.js";
import { normalizeTags } from "../tags.js";
import { assignedAtCreate, assigneeIssue } from "./assign.js";
import { expiryOf, insertArtifact, provenanceOf, toArtifact } from "./internal.js";
import type { ArtifactCreateInput, CreatedArtifact } from "./schemas.js";

/** Creates a plain artifact (expiring after the owner's default_ttl_days). It takes no metadata: only a schema's own verb writes metadata. */
export async function createArtifact(ctx: ServiceContext, input: z.output<typeof ArtifactCreateInput>): Promise<CreatedArtifact> {
  if (input.share_type === "json") {
    try {
      JSON.parse(input.body);
    } catch {
      throw validationFailed([{ field: "body", reason: "is not valid JSON (share_type is json)" }]);
    }
  }
  const owner = resolveOwner(ctx.principal, input.owner);
  const now = ctx.now();
  const policy = await loadPolicy(ctx.store, owner);
  const tags = input.tags ?? [];
  // Every persisted string, scanned as stored (tags before lowercasing), under the owner's secrets policy.
  const { values, redactions } = await applySecretRules(
    [
      { field: "title", value: input.title },
      { field: "body", value: input.body },
      ...tags.map((value, i) => ({ field: `tags.${i}`, value, kind: "tag" as const })),
      ...(input.model === undefined ? [] : [{ field: "model", value: input.model }]),
    ],
    policy,
  );
  const [title = input.title, body = input.body, ...rest] = values;
  const expiresAt = expiryOf(now, policy.default_ttl_days, input.expires_in);
  // The artifact and its artifact.created event commit together, or neither does; the assignee is checked under its membership lock.
  const row = await ctx.store.transaction(async (tx) => {
    const unassignable = input.assignee === undefined ? null : await assigneeIssue(tx, owner, input.assignee);
    if (unassignable) throw validationFailed([unassignable]);
    const inserted = await insertArtifact(
      tx,
      now,
      expiresAt,
      {
        owner,
        title,
        share_type: input.share_type,
        body,
        checksum: checksumOf(body),
        tags: normalizeTags(rest.slice(0, tags.length)),
        metadata: null,
        provenance: provenanceOf(ctx, input.model === undefined ? undefined : rest[tags.length]),
        follows: null,
        details: null,
        assignee: input.assignee ?? null,
      },
      input.assignee === undefined ? undefined : assignedAtCreate(ctx, now),
    );
    if (input.assignee !== undefined) tx.afterCommit(ringOutbox);
    await recordArtifactCreated(tx, ctx.config, inserted, now);
    return inserted;
  });
  const viewer = { kind: "principal", principal: ctx.principal } as const;
  return { ...(await toArtifact(ctx.store, ctx.config, viewer, row)), redactions, warnings: [] };
}
