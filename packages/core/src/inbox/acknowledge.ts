import type { z } from "zod";
import { ARTIFACT_COLUMNS, type ArtifactRow, isExpired, shareUrl, toArtifact } from "../artifact/internal.js";
import { gone } from "../artifact/read.js";
import type { Artifact } from "../artifact/schemas.js";
import type { ServiceContext } from "../context.js";
import { forbidden, notFound, validationFailed } from "../errors.js";
import { recordEvent } from "../events/outbox.js";
import { actsFor } from "../identity/authorize.js";
import { loadPolicy } from "../policy/store.js";
import { findSecrets, redactText } from "../secrets/scan.js";
import { toAcknowledgement } from "./acknowledgement.js";
import { actionStateSql } from "./rules.js";
import type { AcknowledgeInput } from "./schemas.js";

/** SPEC §18: a model cannot tell a person it has been told. */
export const ACKNOWLEDGE_PERMISSION = "acknowledgements:write";

/** The note is scanned like a receipt field, with the owner's scanner settings and secrets policy. */
async function scannedNote(ctx: ServiceContext, owner: string, note: string | undefined): Promise<string | null> {
  if (note === undefined) return null;
  const policy = await loadPolicy(ctx.store, owner);
  const findings = await findSecrets([{ field: "note", value: note }], { entropy: policy.entropy_detection });
  if (findings.length === 0) return note;
  if (policy.secrets === "block") {
    const rules = [...new Set(findings.map((f) => f.rule))].join(", ");
    throw validationFailed([{ field: "note", reason: `contains a secret (${rules}); the owner's policy blocks secrets` }]);
  }
  return redactText(note, findings);
}

/**
 * artifact_acknowledge: a person says they saw what a receipt asks. Human tokens only;
 * only the owner user or a member of the owner team (a share link is not enough — others
 * get the 404 of a missing id); only while the receipt asks for something. One record per
 * user: a second call keeps the first note and announces nothing. The receipt itself —
 * body, metadata, checksum — is never touched.
 */
export async function acknowledgeReceipt(ctx: ServiceContext, input: z.output<typeof AcknowledgeInput>): Promise<Artifact> {
  const { principal } = ctx;
  if (principal.token.kind !== "human") {
    throw forbidden(
      `This ${principal.token.kind} token lacks the permission ${ACKNOWLEDGE_PERMISSION}: only a person can acknowledge, with a human token.`,
    );
  }
  const now = ctx.now();
  const [row] = await ctx.store.query<ArtifactRow & { action_state: string | null }>(
    `select ${ARTIFACT_COLUMNS}, ${actionStateSql("artifacts")} as action_state from artifacts where id = $1`,
    [input.id],
  );
  if (!row || !actsFor(principal, row.owner)) throw notFound();
  if (isExpired(row, now)) throw gone();
  if (row.action_state === null) {
    throw validationFailed([
      { field: "human_action", reason: "is Nothing: this receipt asks no one for anything, so there is nothing to acknowledge" },
    ]);
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
