export { JOBS } from "./job-list.js";
export { type PagedOperationName, pagesOf } from "./paging.js";
export { API_TAGS, type ApiTagName, OPERATIONS, type OperationInput, type OperationName, type OperationOutput, operationNames } from "./registry.js";
export { startWorker, type Worker, type WorkerOptions } from "./worker.js";
