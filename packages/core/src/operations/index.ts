export {
  COMMON_ERRORS,
  defineOperation,
  isOfferedOn,
  type NotOn,
  type Operation,
  type OperationSpec,
  OPTIONAL_SURFACES,
  type OptionalSurface,
} from "./define.js";
export { OPERATION_HEADERS, type OperationHeader } from "./headers.js";
export { invokeOperation } from "./invoke.js";
export { type ApiTag, defineApiTag } from "./api-tags.js";
