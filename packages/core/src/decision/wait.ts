import { readArtifact } from "../artifact/read.js";
import type { Artifact } from "../artifact/schemas.js";
import type { ServiceContext } from "../context.js";
import { validationFailed } from "../errors.js";
import type { DecisionState, DecisionWaitInput } from "./schemas.js";
import { decisionWaiters } from "./waiters.js";

/** Where an ask stands for this reader: answered, expired (also before the worker has marked it), or open. */
export function decisionStateOf(artifact: Pick<Artifact, "ask" | "decision">, now: Date): DecisionState {
  if (artifact.decision) return { state: artifact.decision.state, decision: artifact.decision };
  const deadline = artifact.ask?.answer_by ?? null;
  if (deadline !== null && Date.parse(deadline) <= now.getTime()) return { state: "expired", decision: { state: "expired", at: deadline } };
  return { state: "open", decision: null };
}

/**
 * decision_wait: the agent hears the answer (SPEC §32). Answers at once when the ask is
 * decided or expired; otherwise holds the call up to `wait` seconds (and no later than
 * answer_by) and answers what stands then. Whoever may read the receipt may wait on it.
 * A waiter costs no query while it waits: a local answer wakes it directly, another
 * process's answer is found by the process's one shared poll (waiters.ts, ADR 0079).
 */
export async function waitForDecision(ctx: ServiceContext, input: DecisionWaitInput): Promise<DecisionState> {
  if (input.wait !== undefined && input.timeout_s !== undefined && input.wait !== input.timeout_s) {
    throw validationFailed([{ field: "timeout_s", reason: "differs from `wait`: give one of them" }]);
  }
  const seconds = input.wait ?? input.timeout_s ?? 0;
  const first = await readArtifact(ctx, { id: input.id });
  if (!first.ask) throw validationFailed([{ field: "id", reason: "names a receipt that asks no question with options: there is no decision to wait for" }]);
  const state = decisionStateOf(first, ctx.now());
  if (state.state !== "open" || seconds === 0) return state;
  const deadline = first.ask.answer_by === null ? Number.POSITIVE_INFINITY : Date.parse(first.ask.answer_by) - ctx.now().getTime();
  await decisionWaiters(ctx.store).wait(input.id, Math.max(0, Math.min(seconds * 1000, deadline)), ctx.signal);
  return decisionStateOf(await readArtifact(ctx, { id: input.id }), ctx.now());
}
