import { OUTCOME_LABELS } from "../receipt/schemas.js";

/** A search filter as a person picks it: the input's key, its label, and the values a list offers. */
export interface FilterChoiceView {
  key: "human_action" | "outcome";
  label: string;
  options: Array<{ value: string; label: string }>;
}

/** The receipt filters a list of artifacts offers (the web's bin), in the words of the card. */
export const RECEIPT_FILTER_CHOICES: readonly FilterChoiceView[] = [
  { key: "human_action", label: "Human action", options: [{ value: "needed", label: "Needs a person" }] },
  {
    key: "outcome",
    label: "Outcome",
    options: [
      { value: "pending", label: OUTCOME_LABELS.pending },
      { value: "overdue", label: "Overdue" },
    ],
  },
];
