import type { z } from "zod";
import { ARTIFACT_COLUMNS, type ArtifactRow, isExpired, shareUrl, toArtifact } from "../artifact/internal.js";
import { gone } from "../artifact/read.js";
import type { Artifact } from "../artifact/schemas.js";
import type { ServiceContext } from "../context.js";
import { notFound, validationFailed } from "../errors.js";
import { recordEvent } from "../events/outbox.js";
import { actsFor } from "../identity/authorize.js";
import { loadPolicy } from "../policy/store.js";
import { applySecretRules } from "../secrets/policy.js";
import { toAcknowledgement } from "./acknowledgement.js";
import { actionStateSql } from "./rules.js";
import type { AcknowledgeInput } from "./schemas.js";

/** The note is scanned like a receipt field: the owner's scanner settings and secrets policy (redact, or 422 naming `note`). */
async function scannedNote(ctx: ServiceContext, owner: string, note: string | undefined): Promise<string | null> {
  if (note === undefined) return null;
  const { values } = await applySecretRules([{ field: "note", value: note }], await loadPolicy(ctx.store, owner));
  return values[0] ?? null;
}

/**
 * artifact_acknowledge: a person says they saw what a receipt asks. Human tokens only
 * (the operation needs `acknowledgements:write`, which agent tokens lack: SPEC §18);
 * only the owner user or a member of the owner team (a share link is not enough — others
 * get the 404 of a missing id); only while the receipt asks for something. One record per
 * user: a second call keeps the first note and announces nothing. The receipt itself —
 * body, metadata, checksum — is never touched.
 */
export async function acknowledgeReceipt(ctx: ServiceContext, input: z.output<typeof AcknowledgeInput>): Promise<Artifact> {
  const { principal } = ctx;
  const now = ctx.now();
  const [row] = await ctx.store.query<ArtifactRow & { action_state: string | null }>(
    `select ${ARTIFACT_COLUMNS}, ${actionStateSql("artifacts")} as action_state from artifacts where id = $1`,
    [input.id],
  );
  if (!row || !actsFor(principal, row.owner)) throw notFound();
  if (isExpired(row, now)) throw gone();
  if (row.action_state === null) {
    throw validationFailed([{ field: "human_action", reason: "is Nothing: this receipt asks no one for anything, so there is nothing to acknowledge" }]);
  }
  const note = await scannedNote(ctx, row.owner, input.note);
  await ctx.store.transaction(async (tx) => {
    const [inserted] = await tx.query<{ user_name: string; token_name: string; note: string | null; created_at: Date | string }>(
      `insert into acknowledgements (artifact_id, user_id, user_name, token_id, token_name, note, created_at)
       values ($1, $2, $3, $4, $5, $6, $7)
       on conflict (artifact_id, user_id) do nothing
       returning user_name, token_name, note, created_at`,
      [row.id, principal.user.id, principal.user.name, principal.token.id, principal.token.name, note, now.toISOString()],
    );
    if (!inserted) return;
    // In the acknowledgement's transaction: the event exists exactly when the record does.
    await recordEvent(
      tx,
      {
        type: "receipt.acknowledged",
        owner: row.owner,
        data: {
          id: row.id,
          title: row.title,
          url: shareUrl(ctx.config, row.share_token),
          owner: row.owner,
          acknowledgement: toAcknowledgement(inserted),
        },
      },
      now,
    );
  });
  return toArtifact(ctx.store, ctx.config, { kind: "principal", principal }, row);
}
