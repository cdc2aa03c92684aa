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

/** A run filter as a person picks it from a list (the web's /runs), in the words of the run page. */
export interface RunFilterChoiceView {
  key: "status" | "error";
  label: string;
  options: Array<{ value: string; label: string }>;
}

export const RUN_FILTER_CHOICES: readonly RunFilterChoiceView[] = [
  {
    key: "status",
    label: "State",
    options: [
      { value: "open", label: "Open" },
      { value: "ended", label: "Ended" },
    ],
  },
  {
    key: "error",
    label: "Errors",
    options: [
      { value: "true", label: "With an error" },
      { value: "false", label: "Without errors" },
    ],
  },
];
