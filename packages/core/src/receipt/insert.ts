import { artifactInsertArgument, newArtifactRow, provenanceOf, shareUrl, toNewArtifact } from "../artifact/internal.js";
import { assignedAtCreate } from "../artifact/assign.js";
import type { CreatedArtifact } from "../artifact/schemas.js";
import { artifactCreatedData } from "../events/artifact-event.js";
import { eventArgument, eventPayload } from "../events/outbox.js";
import { ringOutbox } from "../events/wake.js";
import type { ServiceContext } from "../context.js";
import type { ExistingArtifactRef } from "../errors.js";
import { newId } from "../ids.js";
import { parseOwner } from "../identity/names.js";
import { DEFAULT_POLICY, type PolicySettings } from "../policy/schemas.js";
import type { GatedReceipt } from "./gates.js";
import { type IdempotencyClaim, idempotencyLock, outcomeArgument, type StoredOutcome } from "./idempotency.js";
import type { PreparedReceipt } from "./prepare.js";
import { storedReceiptFields } from "./prepare.js";
import { receiptExpiry } from "./expiry.js";
import { receiptWarnings } from "./warnings.js";
import { RECEIPT_SCHEMA_ID } from "./schemas.js";
import { StoreError } from "../store/faults.js";
import type { Sql, Store } from "../store/port.js";

const DUPLICATE_WINDOW_MS = 24 * 3_600_000;

/** Why a write found the caller's facts changed since they were read: retried with fresh ones. */
export type StaleFact = "token" | "team" | "policy";

export type InsertOutcome =
  | { kind: "created"; value: CreatedArtifact }
  | { kind: "duplicate"; existing: ExistingArtifactRef }
  | { kind: "replay"; outcome: StoredOutcome }
  | { kind: "mismatch" }
  | { kind: "foreign-link" }
  | { kind: "stale"; why: StaleFact };

type WriteResult =
  | { status: "created"; deliveries: number }
  | { status: "stale"; why: StaleFact }
  | { status: "replay"; fingerprint: string; outcome: string }
  | { status: "duplicate"; id: string; share_token: string }
  | { status: "foreign-link" };

/** What `cairn_write_receipt` raises when it is called under another isolation level than read committed (migration 0012). */
const NOT_READ_COMMITTED = "CA001";

/**
 * One call, one round trip, in the common case. A database (or role) whose default
 * isolation is not read committed makes the function refuse before it writes anything;
 * the same call then runs in a transaction the store begins as read committed (ADR 0028).
 */
async function writeReceipt(store: Store, argument: string): Promise<WriteResult | undefined> {
  const call = async (sql: Sql) =>
    (await sql.query<{ result: WriteResult }>("select cairn_write_receipt($1::jsonb) as result", [argument]))[0]?.result;
  try {
    return await call(store);
  } catch (err) {
    if (!(err instanceof StoreError && err.code === NOT_READ_COMMITTED)) throw err;
    return store.transaction(call);
  }
}

const policySettings = (p: PolicySettings): PolicySettings => ({
  secrets: p.secrets,
  entropy_detection: p.entropy_detection,
  require_evidence: p.require_evidence,
  default_ttl_days: p.default_ttl_days,
});

export interface InsertOptions {
  /** Whether the write re-checks that the owner's policy is the one the gates used (off only for a last attempt). */
  checkPolicy: boolean;
}

/**
 * The last gate and the write: one call of `cairn_write_receipt` (migration 0010, ADR
 * 0025), one round trip. Under the key's lock and then the (owner, checksum) lock it
 * re-checks what the gates relied on — the token is live, the caller is still in the owner
 * team, the owner's policy is unchanged — and answers `stale` if not, so a cached
 * principal or policy never decides a write. Then: a retry racing its own first attempt
 * replays; identical concurrent submissions store one and refuse the other as a
 * duplicate; a `follows` target that is gone, or expired, is refused under the same locks;
 * the artifact, its outbox row and the key's outcome commit together.
 */
export async function insertReceipt(
  ctx: ServiceContext,
  gated: GatedReceipt,
  prepared: PreparedReceipt,
  claim: IdempotencyClaim | null,
  options: InsertOptions,
): Promise<InsertOutcome> {
  const now = ctx.now();
  const { owner, policy } = gated;
  // `follows` is not rendered (the body is public to link holders), so it joins the checksum here.
  const follows = prepared.metadata.follows ?? null;
  const expiry = receiptExpiry(now, policy.default_ttl_days, prepared.expiresIn, prepared.metadata);
  const row = newArtifactRow(now, expiry.expiresAt, {
    owner,
    ...storedReceiptFields(prepared),
    provenance: provenanceOf(ctx, prepared.model),
    follows,
    details: prepared.details ?? null,
    assignee: prepared.assignee ?? null,
  });
  const value: CreatedArtifact = {
    ...(await toNewArtifact(ctx.store, ctx.config, { kind: "principal", principal: ctx.principal }, row)),
    redactions: gated.redactions,
    warnings: [...receiptWarnings(prepared.metadata, now), ...(expiry.warning ? [expiry.warning] : [])],
  };
  const eventId = newId("evt", now);
  const event = { type: "artifact.created" as const, owner, data: artifactCreatedData(ctx.config, row) };
  const team = parseOwner(owner);
  const argument = {
    // The key's lock, then the (owner, checksum) lock: always this order, so writers never wait crosswise.
    locks: [...(claim ? [idempotencyLock(claim)] : []), `${owner} ${prepared.checksum}`],
    token_id: ctx.principal.token.id,
    user_id: ctx.principal.user.id,
    team: team.kind === "team" ? team.name : null,
    ...(options.checkPolicy && { policy: policySettings(policy), policy_default: policySettings(DEFAULT_POLICY) }),
    now: now.toISOString(),
    receipt_schema: RECEIPT_SCHEMA_ID,
    duplicate_since: new Date(now.getTime() - DUPLICATE_WINDOW_MS).toISOString(),
    artifact: artifactInsertArgument(row, row.assignee === null ? undefined : assignedAtCreate(ctx, now)(row)),
    event: eventArgument(event, eventId, eventPayload(event.type, eventId, now, event.data), now),
    claim: claim ? outcomeArgument(claim, { kind: "created", value }, now) : null,
  };
  const result = await writeReceipt(ctx.store, JSON.stringify(argument));
  switch (result?.status) {
    case "created":
      // The assigned event's deliveries are not counted in `deliveries`: ring for it too.
      if (result.deliveries > 0 || row.assignee !== null) ringOutbox();
      return { kind: "created", value };
    case "stale":
      return { kind: "stale", why: result.why };
    case "replay":
      return result.fingerprint === claim?.fingerprint
        ? { kind: "replay", outcome: JSON.parse(result.outcome) as StoredOutcome }
        : { kind: "mismatch" };
    case "duplicate":
      return { kind: "duplicate", existing: { id: result.id, url: shareUrl(ctx.config, result.share_token) } };
    case "foreign-link":
      return { kind: "foreign-link" };
    default:
      throw new Error("cairn_write_receipt returned no status");
  }
}
