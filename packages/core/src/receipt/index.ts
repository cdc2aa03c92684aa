export { checksumOf } from "../checksum.js";
export { type FieldInfo, fieldsOf } from "../fields.js";
export { LIMITS } from "../limits.js";
export { rejectionError } from "./create.js";
export { dueAtOf, measureDueAt, outcomeStateOf } from "../inbox/rules.js";
export type { GateContext, GateReceipt, GateRefusal, ReceiptGate } from "./custom-gate.js";
export { IdempotencyKey } from "./idempotency.js";
export { prepareReceipt, prepareRedactedReceipt, receiptSearchText, renderValidReceipt, storedReceiptFields, type PreparedReceipt } from "./prepare.js";
export { mapReceiptStrings, redactReceipt, type Redaction, type RedactionResult } from "./redact.js";
export { isRegisteredSchema, jsonSchemaOf, registeredSchemaIds, SCHEMA_REGISTRY, SCHEMA_TAG, type RegisteredSchemaId } from "./registry.js";
export { RECEIPT_V1_TEMPLATE_VERSION, renderReceiptV1 } from "./render.js";
export { RECEIPT_PROMPT, RECEIPT_QUESTION_FIELDS, receiptPromptText, receiptQuestions, type ReceiptQuestion, type ReceiptQuestionField } from "./questions.js";
export { receiptExample } from "./example.js";
export { placeholderIssues, receiptTemplateValues } from "./template.js";
export { receiptWarnings, type ReceiptWarning } from "./warnings.js";
export * from "./schemas.js";
export {
  deriveTitle,
  RECEIPT_TAG,
  validateReceiptInput,
  type Rejection,
  type ValidReceipt,
  type ReceiptValidation,
} from "./validate.js";
export { artifactProvenanceLine, provenanceLine } from "../artifact/provenance-line.js";
export { artifactFacts, artifactListLine } from "../artifact/facts.js";
