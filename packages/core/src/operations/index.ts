export { type ApiTag, defineApiTag } from "./api-tags.js";
export {
  COMMON_ERRORS,
  defineOperation,
  isOfferedOn,
  type NotOn,
  OPTIONAL_SURFACES,
  type Operation,
  type OperationSpec,
  type OptionalSurface,
} from "./define.js";
export { OPERATION_HEADERS, type OperationHeader } from "./headers.js";
export { invokeOperation } from "./invoke.js";
