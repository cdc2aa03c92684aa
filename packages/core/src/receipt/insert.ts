import { expiryOf, insertArtifact, provenanceOf, shareUrl, toNewArtifact } from "../artifact/internal.js";
import type { CreatedArtifact } from "../artifact/schemas.js";
import { recordArtifactCreated } from "../events/artifact-event.js";
import type { ServiceContext } from "../context.js";
import type { ExistingArtifactRef } from "../errors.js";
import type { GatedReceipt } from "./gates.js";
import { findOutcome, type IdempotencyClaim, type StoredOutcome, saveOutcome } from "./idempotency.js";
import type { PreparedReceipt } from "./prepare.js";
import { storedReceiptFields } from "./prepare.js";
import { receiptWarnings } from "./warnings.js";

const DUPLICATE_WINDOW_MS = 24 * 3_600_000;

export type InsertOutcome =
  | { kind: "created"; value: CreatedArtifact }
  | { kind: "duplicate"; existing: ExistingArtifactRef }
  | { kind: "replay"; outcome: StoredOutcome }
  | { kind: "mismatch" };

/**
 * The last gate and the write, in one transaction. A retry racing its own first attempt
 * waits on the key's lock and then replays; identical concurrent submissions wait on the
 * (owner, checksum) lock, so one is stored and the other refused as a duplicate. The key
 * is remembered in the same transaction as the artifact, so a replay never misses it.
 */
export async function insertReceipt(
  ctx: ServiceContext,
  gated: GatedReceipt,
  prepared: PreparedReceipt,
  claim: IdempotencyClaim | null,
): Promise<InsertOutcome> {
  const now = ctx.now();
  const { owner } = gated;
  // The key's lock, then the (owner, checksum) lock, taken with `begin`: always this order, so writers never wait crosswise.
  const locks = [...(claim ? [`cairn.idempotency ${claim.userId} ${claim.key}`] : []), `${owner} ${prepared.checksum}`];
  return ctx.store.transaction(async (tx): Promise<InsertOutcome> => {
    if (claim) {
      const seen = await findOutcome(tx, claim, now);
      if (seen) return seen.fingerprint === claim.fingerprint ? { kind: "replay", outcome: seen.outcome } : { kind: "mismatch" };
    }
    // `follows` is not rendered (the body is public to link holders), so it joins the checksum here.
    const follows = prepared.metadata.follows ?? null;
    const [dup] = await tx.query<{ id: string; share_token: string }>(
      `select id, share_token from artifacts
        where owner = $1 and checksum = $2 and metadata is not null and created_at > $3
          and follows is not distinct from $4
        order by created_at desc limit 1`,
      [owner, prepared.checksum, new Date(now.getTime() - DUPLICATE_WINDOW_MS).toISOString(), follows],
    );
    if (dup) return { kind: "duplicate", existing: { id: dup.id, url: shareUrl(ctx.config, dup.share_token) } };
    const expiresAt = expiryOf(now, gated.policy.default_ttl_days, prepared.expiresIn);
    const row = await insertArtifact(tx, now, expiresAt, {
      owner,
      ...storedReceiptFields(prepared),
      provenance: provenanceOf(ctx, prepared.model),
      follows,
      details: prepared.details ?? null,
    });
    await recordArtifactCreated(tx, ctx.config, row, now);
    const viewer = { kind: "principal", principal: ctx.principal } as const;
    const value: CreatedArtifact = {
      ...(await toNewArtifact(tx, ctx.config, viewer, row)),
      redactions: gated.redactions,
      warnings: receiptWarnings(prepared.metadata, now),
    };
    if (claim) await saveOutcome(tx, claim, { kind: "created", value }, now);
    return { kind: "created", value };
  }, { locks });
}
