export { Acknowledgement } from "./acknowledgement.js";
export { HUMAN_ACTION_LABEL, type HumanActionText, humanActionText } from "./format.js";
export { emitMeasureDue, measureDueJob } from "./measure-due.js";
export { ACTION_STATES, type ActionState, OUTCOME_STATES, type OutcomeState, STALE_ACTION_DAYS } from "./rules.js";
export * from "./schemas.js";
export { inboxLine, summarizeInbox } from "./summary.js";
