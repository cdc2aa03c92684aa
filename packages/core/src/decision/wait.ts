import { readArtifact } from "../artifact/read.js";
import type { Artifact } from "../artifact/schemas.js";
import type { ServiceContext } from "../context.js";
import { validationFailed } from "../errors.js";
import type { Sql } from "../store/port.js";
import { decisionStateOf } from "../view/decision.js";
import type { DecisionState, DecisionWaitInput } from "./schemas.js";
import { decisionWaiters } from "./waiters.js";

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
  // A caller who went away hears nothing: no read on its behalf.
  if (ctx.signal?.aborted) return state;
  const now = await currentAsk(ctx.store, input.id);
  return decisionStateOf(now ?? first, ctx.now());
}

const reading = new WeakMap<Sql, Map<string, Promise<Pick<Artifact, "ask" | "decision"> | undefined>>>();

/**
 * The ask and decision as they stand, read once for every waiter woken together: a
 * thousand agents waiting on one ask cost one query when it is answered, not a thousand.
 * Each waiter's right to read it was checked when it began to wait.
 */
function currentAsk(sql: Sql, id: string): Promise<Pick<Artifact, "ask" | "decision"> | undefined> {
  let inFlight = reading.get(sql);
  if (!inFlight) {
    inFlight = new Map();
    reading.set(sql, inFlight);
  }
  const requests = inFlight;
  const pending = requests.get(id);
  if (pending) return pending;
  const read = sql
    .query<{ ask: Artifact["ask"]; decision: Artifact["decision"] }>("select ask, decision from artifacts where id = $1", [id])
    .then(([row]) => row)
    .finally(() => requests.delete(id));
  requests.set(id, read);
  return read;
}
