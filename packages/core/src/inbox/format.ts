import { DEFAULT_HUMAN_ACTION } from "../receipt/schemas.js";
import { asksAPerson } from "./rules.js";

/** The words in front of a receipt's human action, on the card's chip, in inbox rows and in events. */
export const HUMAN_ACTION_LABEL = "You need to do";

export interface HumanActionText {
  /** The action as stored, e.g. "Approve the retry budget" or "Nothing". */
  action: string;
  /** Whether it asks a person for anything (it is not `Nothing`). */
  needed: boolean;
  /** The one line every surface shows: `You need to do: Approve the retry budget`. */
  text: string;
}

/**
 * The one formatter of a receipt's human action, so the card's chip, an inbox row, the
 * CLI and the `receipt.acknowledged` event say the same words. Any metadata is accepted:
 * a plain artifact (no metadata) asks nothing.
 */
export function humanActionText(metadata: Readonly<Record<string, unknown>> | null | undefined): HumanActionText {
  const stored = metadata?.human_action;
  const action = typeof stored === "string" && stored.length > 0 ? stored : DEFAULT_HUMAN_ACTION;
  return { action, needed: asksAPerson(action), text: `${HUMAN_ACTION_LABEL}: ${action}` };
}
