export { artifactFacts, artifactListLine } from "../artifact/facts.js";
export { artifactProvenanceLine, provenanceLine } from "../artifact/provenance-line.js";
export { checksumOf } from "../checksum.js";
export { type FieldInfo, fieldsOf } from "../fields.js";
export { dueAtOf, measureDueAt, outcomeStateOf } from "../inbox/rules.js";
export { LIMITS } from "../limits.js";
export { rejectionError } from "./create.js";
export type { GateContext, GateReceipt, GateRefusal, ReceiptGate } from "./custom-gate.js";
export { receiptExample } from "./example.js";
export { IdempotencyKey } from "./idempotency.js";
export { type PreparedReceipt, prepareReceipt, prepareRedactedReceipt, receiptSearchText, renderValidReceipt, storedReceiptFields } from "./prepare.js";
export { RECEIPT_PROMPT, RECEIPT_QUESTION_FIELDS, type ReceiptQuestion, type ReceiptQuestionField, receiptPromptText, receiptQuestions } from "./questions.js";
export { mapReceiptStrings, type Redaction, type RedactionResult, redactReceipt } from "./redact.js";
export { isRegisteredSchema, jsonSchemaOf, type RegisteredSchemaId, registeredSchemaIds, SCHEMA_REGISTRY, SCHEMA_TAG } from "./registry.js";
export { RECEIPT_V1_TEMPLATE_VERSION, renderReceiptV1 } from "./render.js";
export * from "./schemas.js";
export { placeholderIssues, receiptTemplateValues } from "./template.js";
export {
  deriveTitle,
  RECEIPT_TAG,
  type ReceiptValidation,
  type Rejection,
  type ValidReceipt,
  validateReceiptInput,
} from "./validate.js";
export { type ReceiptWarning, receiptWarnings } from "./warnings.js";
