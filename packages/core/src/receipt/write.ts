import { assignedAtCreate } from "../artifact/assign.js";
import { artifactInsertArgument, newArtifactAnswer, newArtifactRow, provenanceOf, shareUrl } from "../artifact/internal.js";
import type { CreatedArtifact } from "../artifact/schemas.js";
import type { ServiceContext } from "../context.js";
import { storedAsk } from "../decision/ask.js";
import type { ExistingArtifactRef } from "../errors.js";
import { artifactCreatedData } from "../events/artifact-event.js";
import { eventArgument, eventPayload } from "../events/outbox.js";
import { parseOwner } from "../identity/names.js";
import { newId } from "../ids.js";
import { traceLinkOf } from "../run/trace-links.js";
import { PerTurn, perStore } from "../store/per-turn.js";
import type { Sql, Store } from "../store/port.js";
import { callReadCommitted } from "../store/read-committed.js";
import { receiptExpiry } from "./expiry.js";
import type { GatedReceipt } from "./gates.js";
import { type IdempotencyClaim, idempotencyLock, outcomeArgument, type StoredOutcome } from "./idempotency.js";
import { receiptSearchText, renderValidReceipt, storedReceiptFields } from "./prepare.js";
import { RECEIPT_SCHEMA_ID } from "./schemas.js";
import { receiptWarnings } from "./warnings.js";

const DUPLICATE_WINDOW_MS = 24 * 3_600_000;

/** Why a write found the caller's facts changed since they were read: retried with fresh ones. */
export type StaleFact = "token" | "team" | "policy";

/** What the one write answered. Every status but `created` wrote nothing. */
export type WriteOutcome =
  | { status: "created"; value: CreatedArtifact; deliveries: number }
  | { status: "stale"; why: StaleFact }
  | { status: "replay"; fingerprint: string; outcome: StoredOutcome }
  | { status: "duplicate"; existing: ExistingArtifactRef }
  | { status: "foreign-link" }
  | { status: "unassignable" };

type WriteResult =
  | { status: "created"; deliveries: number }
  | { status: "stale"; why: StaleFact }
  | { status: "replay"; fingerprint: string; outcome: string }
  | { status: "duplicate"; id: string; share_token: string }
  | { status: "foreign-link" }
  | { status: "unassignable" };

/**
 * The writes that arrive in one turn of the event loop, as one call of
 * `cairn_write_receipts` (docs/adr/0066-receipt-writes-share-a-call.md): one round trip and one commit for all of them, each
 * answered as if sent alone. A call that fails wrote nothing (one transaction), so each of
 * its writes is sent again alone and meets only its own fault. At most 8 M characters of
 * arguments: a write's argument is a few KB, but a 2 MB request's can be several MB, and a
 * call holds its locks until it commits. A call that failed in a way that may have committed
 * (its answer lost) is sent again alone too: each write then meets its own row, and is
 * answered as stored (writeReceipt), never as a duplicate of itself.
 */
const writesOf = perStore(
  (store) =>
    new PerTurn<string, WriteResult>({
      most: writesPerCall(store),
      mostSize: 8 * 1024 * 1024,
      size: (argument) => argument.length,
      aloneOnFailure: true,
      send: async (argumentsJson) => {
        const call = async (sql: Sql) =>
          (await sql.query<{ results: WriteResult[] }>("select cairn_write_receipts($1::jsonb) as results", [`[${argumentsJson.join(",")}]`]))[0]?.results;
        const results = await callReadCommitted(store, call);
        if (!Array.isArray(results)) throw new Error("cairn_write_receipts returned no answers");
        return results;
      },
    }),
);

/**
 * Writes per call, each call sent as soon as it is full. A call runs its writes one after another in one backend, and
 * goes as soon as it is full: on PostgreSQL, calls of 8 keep both cores' backends busy
 * while the server prepares the turn's next requests, where one call of 32 left them
 * waiting for it. The embedded store has one connection, so fewer, larger calls do better.
 */
const writesPerCall = (store: Store) => (store.driver === "pglite" ? 32 : 8);

/**
 * The write: one call of `cairn_write_receipt` (store/sql/cairn_write_receipt.sql: one
 * statement that re-checks cached facts under its locks), gathered with the turn's other
 * writes. Everything it stores is
 * computed here first — ids, share token, body, expiry, events, the trace link, and the
 * answer itself, so the idempotency key's saved outcome is byte for byte what the caller
 * gets. Under the key's lock and the (owner, checksum) lock the function re-checks what
 * the decision relied on (the token is live, the caller is in the owner team, the policy's
 * revision is the one gated against) and answers `stale` if not; replays a key's first
 * answer; refuses a `follows` that is not a live receipt of the owner and an assignee who
 * may not read it; refuses a duplicate; or stores the artifact, its events, its trace link
 * and the key's outcome.
 */
export async function writeReceipt(ctx: ServiceContext, gated: GatedReceipt, claim: IdempotencyClaim | null): Promise<WriteOutcome> {
  const now = ctx.now();
  const { owner, policy } = gated;
  const prepared = renderValidReceipt(gated.receipt);
  const expiry = receiptExpiry(now, policy.policy.default_ttl_days, prepared.expiresIn, prepared.metadata);
  const row = newArtifactRow(now, expiry.expiresAt, {
    owner,
    ...storedReceiptFields(prepared),
    provenance: provenanceOf(ctx, prepared.model),
    // `follows` is not rendered (the body is public to link holders), so it joins the checksum's lock here.
    follows: prepared.metadata.follows ?? null,
    details: prepared.details ?? null,
    assignee: prepared.assignee ?? null,
    ask: prepared.ask === undefined ? null : storedAsk(prepared.ask, now),
  });
  const link = await traceLinkOf(ctx, owner);
  const value: CreatedArtifact = {
    ...newArtifactAnswer(ctx.config, row, link.produced_by),
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
    policy_revision: policy.revision,
    now: now.toISOString(),
    receipt_schema: RECEIPT_SCHEMA_ID,
    duplicate_since: new Date(now.getTime() - DUPLICATE_WINDOW_MS).toISOString(),
    artifact: artifactInsertArgument(row, receiptSearchText(prepared), row.assignee === null ? undefined : assignedAtCreate(ctx, now)(row)),
    event: eventArgument(event, eventId, eventPayload(event.type, eventId, now, event.data), now),
    trace: link.trace,
    claim: claim ? outcomeArgument(claim, { kind: "created", value }, now) : null,
  };
  const result = await writesOf(ctx.store).call(JSON.stringify(argument));
  switch (result.status) {
    case "created":
      return { status: "created", value, deliveries: result.deliveries };
    case "replay":
      return { status: "replay", fingerprint: result.fingerprint, outcome: JSON.parse(result.outcome) as StoredOutcome };
    case "duplicate":
      // Its own row: a gathered call that committed but lost its answer (the connection dropped
      // after COMMIT) was sent again alone and met this write. It is stored; it is no duplicate.
      // Its deliveries are not known: waking the worker for none costs nothing.
      if (result.id === row.id) return { status: "created", value, deliveries: 1 };
      return { status: "duplicate", existing: { id: result.id, url: shareUrl(ctx.config, result.share_token) } };
    case "stale":
    case "foreign-link":
    case "unassignable":
      return result;
  }
}
