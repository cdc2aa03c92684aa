import type { z } from "zod";
import { DEFAULT_HUMAN_ACTION, ReceiptFields } from "./schemas.js";

/** The nine questions a receipt answers, in the order a reader meets them on the card. */
export const RECEIPT_QUESTION_FIELDS = [
  "changed",
  "affected",
  "before",
  "after",
  "evidence",
  "outcome",
  "human_action",
  "remaining",
  "learned",
] as const satisfies ReadonlyArray<keyof typeof ReceiptFields.shape>;

export type ReceiptQuestionField = (typeof RECEIPT_QUESTION_FIELDS)[number];

export interface ReceiptQuestion {
  field: ReceiptQuestionField;
  /** The question itself, e.g. "What changed?". */
  question: string;
  /** The rest of the field's description: how to answer it. */
  hint: string;
}

/** A field's description, looking through optional/default wrappers. */
function descriptionOf(schema: z.ZodType): string {
  let node: z.ZodType | undefined = schema;
  while (node) {
    if (node.description) return node.description;
    node = (node._zod.def as { innerType?: z.ZodType }).innerType;
  }
  throw new Error("a receipt field has no description");
}

/**
 * The questions, derived from the field descriptions (each begins with its question), so
 * the prompt, the plugin's command and the tool schema cannot say different things.
 */
export function receiptQuestions(): ReceiptQuestion[] {
  return RECEIPT_QUESTION_FIELDS.map((field) => {
    const description = descriptionOf(ReceiptFields.shape[field]);
    const end = description.indexOf("?");
    if (end < 0) throw new Error(`the description of ${field} does not begin with its question`);
    return { field, question: description.slice(0, end + 1), hint: description.slice(end + 1).trim() };
  });
}

/**
 * The text of the `receipt` prompt: what an agent is asked when a person picks "leave a
 * receipt" from a client's menu. `task` names the work; without it, the work just done.
 */
export function receiptPromptText(task?: string): string {
  const work = task?.trim() ? `this task: ${task.trim()}` : "the task you just finished";
  const questions = receiptQuestions().map((q, i) => `${i + 1}. ${q.question} (\`${q.field}\`) ${q.hint}`);
  return [
    `Leave a Cairn receipt for ${work}.`,
    "",
    "Answer these nine questions from what you actually did and observed; do not invent evidence or measurements:",
    "",
    ...questions,
    "",
    `Then call the receipt_create tool once with those fields (omit \`human_action\` when nothing is needed: it becomes "${DEFAULT_HUMAN_ACTION}"). ` +
      "If the tool answers with an error, fix the fields its issues name and call it again.",
    "Give the person the share url it returns, and remind them that the receipt expires (after 7 days unless the owner's policy says otherwise) unless they retain it.",
  ].join("\n");
}

/** How the prompt is offered in a client's menu (MCP prompts/list, the Claude Code command). */
export const RECEIPT_PROMPT = {
  name: "receipt",
  title: "Leave a receipt",
  description: "Asks the nine receipt questions about a task and leaves the answers as a Cairn receipt (receipt_create).",
  taskDescription: 'The task the receipt is for, in a few words, e.g. "migrate the billing cron". Without it: the task just finished.',
} as const;
