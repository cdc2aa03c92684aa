import { type ArtifactRow, findArtifact, isExpired, shareUrl, toArtifact } from "../artifact/internal.js";
import { gone } from "../artifact/read.js";
import type { Artifact } from "../artifact/schemas.js";
import type { ServiceContext } from "../context.js";
import { readableInstant } from "../dates.js";
import { CairnError, type Issue, notFound, validationFailed } from "../errors.js";
import { recordEvent } from "../events/outbox.js";
import { ringOutbox } from "../events/wake.js";
import { actsFor } from "../identity/authorize.js";
import { toAcknowledgement } from "../inbox/acknowledgement.js";
import { loadPolicy } from "../policy/store.js";
import { applySecretRules } from "../secrets/policy.js";
import { isLockConflict } from "../store/faults.js";
import type { Sql } from "../store/port.js";
import type { Ask, DecideInput, Decision, DecisionVia } from "./schemas.js";
import { decisionWaiters } from "./waiters.js";

type Decided = Extract<Decision, { state: "decided" }>;

/** Where an answer came from: the entry point's own word when it set one (§33), else the surface's. */
export const viaOf = (ctx: Pick<ServiceContext, "via" | "surface">): DecisionVia => ctx.via ?? (ctx.surface === "mcp" ? "mcp-app" : ctx.surface);

/** The 409 of an ask someone already answered: who chose what, and when. */
export const alreadyDecided = (d: Decided) =>
  new CairnError(
    "already_decided",
    `This ask was already answered: ${d.by.user} chose "${d.label}" (${d.option}) at ${readableInstant(d.at)}. The first answer is final.`,
  );

export const expiredAsk = (at: string) =>
  new CairnError("expired", `This ask expired at ${readableInstant(at)} without an answer; it can no longer be answered.`);

/** The comment against the ask's rule; its issues name `comment`. */
function commentIssues(ask: Ask, comment: string | undefined): Issue[] {
  if (ask.comment === "none" && comment !== undefined) return [{ field: "comment", reason: "is not taken: this ask allows no comment" }];
  if (ask.comment === "required" && comment === undefined) return [{ field: "comment", reason: "is required by this ask: say why" }];
  return [];
}

/** An answer that found the ask already settled: the same person's same choice is answered again; anything else is refused. */
function settled(ctx: ServiceContext, decision: Decision, option: string): void {
  if (decision.state === "expired") throw expiredAsk(decision.at);
  if (decision.by.user === ctx.principal.user.name && decision.option === option) return;
  throw alreadyDecided(decision);
}

async function scannedComment(ctx: ServiceContext, owner: string, comment: string | undefined): Promise<string | null> {
  if (comment === undefined) return null;
  const { values } = await applySecretRules([{ field: "comment", value: comment }], await loadPolicy(ctx.store, owner));
  return values[0] ?? null;
}

/**
 * artifact_decide: a person answers a receipt's ask (SPEC §32). Human tokens only (the
 * operation needs `decisions:write`, which agent tokens lack); only someone who may
 * acknowledge it (§15: the owner user or a member of the owner team — a share link is not
 * enough). The first answer wins across processes: one conditional update, `where decision
 * is null`, so of two answers at once exactly one changes the row and the other finds it
 * answered. The same person's same choice again is answered with no new event. Answering
 * also acknowledges, in the same transaction. `via` is the surface's, never the client's.
 */
export async function decideAsk(ctx: ServiceContext, input: DecideInput): Promise<Artifact> {
  const { principal } = ctx;
  const now = ctx.now();
  const row = await findArtifact(ctx.store, input.id);
  if (!row || !actsFor(principal, row.owner)) throw notFound();
  if (isExpired(row, now)) throw gone();
  const { ask } = row;
  if (!ask) throw validationFailed([{ field: "id", reason: "names a receipt that asks no question with options: acknowledge it instead" }]);
  const option = ask.options.find((o) => o.id === input.option);
  if (!option) throw validationFailed([{ field: "option", reason: `is not one of this ask's options (${ask.options.map((o) => o.id).join(", ")})` }]);
  const issues = commentIssues(ask, input.comment);
  if (issues.length > 0) throw validationFailed(issues);
  if (row.decision) settled(ctx, row.decision, option.id);
  else if (ask.answer_by !== null && Date.parse(ask.answer_by) <= now.getTime()) throw expiredAsk(ask.answer_by);
  else {
    const decision: Decided = {
      state: "decided",
      option: option.id,
      label: option.label,
      comment: await scannedComment(ctx, row.owner, input.comment),
      by: { user: principal.user.name, token_name: principal.token.name },
      via: viaOf(ctx),
      at: now.toISOString(),
    };
    const won = await ctx.store
      .transaction((tx) => recordDecision(ctx, tx, row, decision))
      .catch((err: unknown) => {
        // Under a stricter default isolation the loser of a race is refused instead of finding the row answered.
        if (isLockConflict(err)) return false;
        throw err;
      });
    if (!won) {
      const after = await findArtifact(ctx.store, row.id);
      if (after?.decision) settled(ctx, after.decision, option.id);
      else if (ask.answer_by !== null) throw expiredAsk(ask.answer_by);
    }
  }
  const current = (await findArtifact(ctx.store, row.id)) ?? row;
  return toArtifact(ctx.store, ctx.config, { kind: "principal", principal }, current);
}

/** The answer, the acknowledgement it implies and their events, or nothing when another answer (or the deadline) came first. */
async function recordDecision(ctx: ServiceContext, tx: Sql, row: ArtifactRow, decision: Decided): Promise<boolean> {
  const { principal } = ctx;
  const [updated] = await tx.query<{ id: string }>(
    `update artifacts set decision = $2::jsonb
      where id = $1 and ask is not null and decision is null and (answer_by is null or answer_by > $3::timestamptz)
      returning id`,
    [row.id, JSON.stringify(decision), decision.at],
  );
  if (!updated) return false;
  const url = shareUrl(ctx.config, row.share_token);
  const [acknowledged] = await tx.query<{ user_name: string; token_name: string; note: string | null; created_at: Date | string }>(
    `insert into acknowledgements (artifact_id, user_id, user_name, token_id, token_name, note, created_at)
     values ($1, $2, $3, $4, $5, null, $6)
     on conflict (artifact_id, user_id) do nothing
     returning user_name, token_name, note, created_at`,
    [row.id, principal.user.id, principal.user.name, principal.token.id, principal.token.name, decision.at],
  );
  const base = { id: row.id, title: row.title, url, owner: row.owner };
  if (acknowledged) {
    await recordEvent(
      tx,
      { type: "receipt.acknowledged", owner: row.owner, data: { ...base, acknowledgement: toAcknowledgement(acknowledged) } },
      new Date(decision.at),
    );
  }
  const { state: _state, ...answer } = decision;
  await recordEvent(tx, { type: "receipt.decided", owner: row.owner, data: { ...base, ...answer } }, new Date(decision.at));
  tx.afterCommit(() => {
    ringOutbox();
    decisionWaiters(ctx.store).wake(row.id);
  });
  return true;
}
