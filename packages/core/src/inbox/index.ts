export { Acknowledgement } from "./acknowledgement.js";
export { HUMAN_ACTION_LABEL, humanActionText, type HumanActionText } from "./format.js";
export { emitMeasureDue, measureDueJob } from "./measure-due.js";
export { ACTION_STATES, OUTCOME_STATES, STALE_ACTION_DAYS, type ActionState, type OutcomeState } from "./rules.js";
export * from "./schemas.js";
export { inboxLine, summarizeInbox } from "./summary.js";
