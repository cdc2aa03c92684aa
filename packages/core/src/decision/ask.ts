import type { Issue } from "../errors.js";
import { type Ask, type AskInput, durationMs } from "./schemas.js";

/** The instant an ask's `answer_by` names, a duration counted from `now`; null when it has none. */
export function answerByOf(ask: AskInput, now: Date): Date | null {
  if (ask.answer_by === undefined) return null;
  const ms = durationMs(ask.answer_by);
  return new Date(ms === null ? Date.parse(ask.answer_by) : now.getTime() + ms);
}

/** The issue when `answer_by` is already past (or more than the stored range away), else null. */
export function answerByIssue(ask: AskInput | undefined, now: Date): Issue | null {
  if (ask?.answer_by === undefined) return null;
  const at = answerByOf(ask, now);
  if (at === null) return null;
  if (at.getTime() <= now.getTime()) return { field: "ask.answer_by", reason: "is already past: give a later instant or a duration such as 48h" };
  if (at.getTime() > Date.parse("9999-12-31T23:59:59.999Z")) return { field: "ask.answer_by", reason: "is too far away: it must fall before 9999-12-31" };
  return null;
}

/** The ask as stored on the artifact and shown on the artifact object. */
export function storedAsk(ask: AskInput, now: Date): Ask {
  const at = answerByOf(ask, now);
  return { options: ask.options.map(({ id, label }) => ({ id, label })), comment: ask.comment, answer_by: at === null ? null : at.toISOString() };
}
