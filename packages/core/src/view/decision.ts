import type { Artifact } from "../artifact/schemas.js";
import { readableInstant } from "../dates.js";
import type { Ask, Decision, DecisionState } from "../decision/schemas.js";

/** Where an ask stands for this reader: answered, expired (also before the worker has marked it), or open. */
export function decisionStateOf(artifact: Pick<Artifact, "ask" | "decision">, now: Date): DecisionState {
  if (artifact.decision) return { state: artifact.decision.state, decision: artifact.decision };
  const deadline = artifact.ask?.answer_by ?? null;
  if (deadline !== null && Date.parse(deadline) <= now.getTime()) return { state: "expired", decision: { state: "expired", at: deadline } };
  return { state: "open", decision: null };
}

/** The words of an ask and its answer, for every rendering (SPEC §32): adapters print these, never their own. */
export const DECISION_WORDS = {
  options: "Choose one",
  answerBy: "Answer by",
  decided: "Decided",
  expired: "Expired unanswered",
  comment: "Comment",
} as const;

/** "Decided: Approve — sam, 2026-12-07 10:00 UTC", or "Expired unanswered: 2026-12-09 17:00 UTC". */
export function decisionText(decision: Decision): string {
  if (decision.state === "expired") return `${DECISION_WORDS.expired}: ${readableInstant(decision.at)}`;
  return `${DECISION_WORDS.decided}: ${decision.label} — ${decision.by.user}, ${readableInstant(decision.at)}`;
}

/**
 * The one line an inbox row marks its ask with (SPEC §32): open, the option ids to answer
 * with and the deadline, e.g. "? approve | reject — answer by 2026-12-09 10:00 UTC"; once
 * answered or expired, the answer in words. Null when it asks nothing with options.
 */
export function askMarkOf(artifact: Pick<Artifact, "ask" | "decision">, now: Date): string | null {
  const { ask } = artifact;
  if (!ask) return null;
  const { decision } = decisionStateOf(artifact, now);
  if (decision) return decisionText(decision);
  const deadline = ask.answer_by === null ? "" : ` — ${DECISION_WORDS.answerBy.toLowerCase()} ${readableInstant(ask.answer_by)}`;
  return `? ${ask.options.map((o) => o.id).join(" | ")}${deadline}`;
}

/** The ask as a card shows it: open (its options and deadline), decided (who chose what, with the comment) or expired. */
export interface AskView {
  state: "open" | "decided" | "expired";
  options: { label: string; items: Array<{ id: string; label: string; chosen: boolean }> };
  answer_by: { label: string; text: string } | null;
  /** The answer or the expiry in words; null while open. */
  decision: string | null;
  comment: { label: string; text: string } | null;
  /** Whether the comment is `none`, `optional` or `required`, for a form that asks for one. */
  comment_rule: "none" | "optional" | "required";
}

/** The ask of an artifact as it stands at `now`, or null when it asks nothing with options. */
export function askViewOf(artifact: Pick<Artifact, "ask" | "decision">, now: Date = new Date()): AskView | null {
  const { ask } = artifact;
  if (!ask) return null;
  const { state, decision } = decisionStateOf(artifact, now);
  const chosen = decision?.state === "decided" ? decision.option : null;
  return {
    state,
    options: { label: DECISION_WORDS.options, items: ask.options.map((o) => ({ id: o.id, label: o.label, chosen: o.id === chosen })) },
    answer_by: ask.answer_by === null ? null : { label: DECISION_WORDS.answerBy, text: readableInstant(ask.answer_by) },
    decision: decision ? decisionText(decision) : null,
    comment: decision?.state === "decided" && decision.comment !== null ? { label: DECISION_WORDS.comment, text: decision.comment } : null,
    comment_rule: ask.comment,
  };
}

/** The plain-text lines of an ask (the CLI's `read` header, a notification): open options and deadline, or the answer and comment. */
export function askLines(view: AskView): string[] {
  if (view.decision !== null) return [view.decision, ...(view.comment ? [`${view.comment.label}: ${view.comment.text}`] : [])];
  return [
    `${view.options.label}: ${view.options.items.map((o) => `${o.label} (${o.id})`).join(" · ")}`,
    ...(view.answer_by ? [`${view.answer_by.label}: ${view.answer_by.text}`] : []),
  ];
}

/** An open ask's question in words, for a message that names it (a notification): its options and deadline. */
export function askQuestionLines(ask: Pick<Ask, "options" | "answer_by">): string[] {
  return [
    `${DECISION_WORDS.options}: ${ask.options.map((o) => o.label).join(" · ")}`,
    ...(ask.answer_by ? [`${DECISION_WORDS.answerBy}: ${readableInstant(ask.answer_by)}`] : []),
  ];
}

/**
 * What the agent that left an ask is told with the stored receipt (MCP's receipt_create
 * result): the question is out, and how to hear the answer. Null without an ask.
 */
export function askHintOf(artifact: Pick<Artifact, "id" | "ask" | "metadata">): string | null {
  if (!artifact.ask) return null;
  const options = artifact.ask.options.map((o) => `${o.label} (${o.id})`).join(", ");
  const deadline = artifact.ask.answer_by === null ? "" : `, answer by ${readableInstant(artifact.ask.answer_by)}`;
  return (
    `This receipt asks a person to choose: ${options}${deadline}. ` +
    `To hear the answer, call decision_wait {"id": "${artifact.id}", "timeout_s": 60}; while its state is "open", call it again. ` +
    `"decided" gives the chosen option (decision.option) and any comment; "expired" means nobody answered in time.`
  );
}
