export * from "./artifact/schemas.js";
export { ArtifactExportPage, EXPORT_PAGE_SIZE } from "./artifact/export.js";
export * from "./artifact/resource-uri.js";
export { SHARE_PATH, shareLinkOf } from "./artifact/share-link.js";
export { readArtifactByShareToken } from "./artifact/read.js";
export { A2uiMessages } from "./artifact/a2ui.js";
export { artifactFacts, artifactListLine } from "./artifact/facts.js";
export {
  artifactProvenanceLine,
  provenanceHeader,
  provenanceLine,
  SURFACE_LABELS,
  type ProvenanceHeader,
} from "./artifact/provenance-line.js";
export { API_INFO, apiContact } from "./api-info.js";
export { createCairn, openCairn, type Cairn, type CairnOptions } from "./cairn.js";
export { checksumOf } from "./checksum.js";
export { type FieldInfo, fieldsOf } from "./fields.js";
export { newId } from "./ids.js";
export * from "./context.js";
export * from "./drops/classification.js";
export { SURFACE_WORDS, type SurfaceWords, surfaceWords } from "./drops/surface-words.js";
export * from "./drops/schemas.js";
export * from "./health/schemas.js";
export { READY_WAIT_MS, type Readiness } from "./health/readiness.js";
export * from "./metrics/index.js";
export * from "./policy/schemas.js";
export { containsSecret, DEFAULT_SCAN_SETTINGS, findSecrets, redactText, type ScanSettings, type SecretFinding } from "./secrets/scan.js";
export { preloadSecretScanner } from "./secrets/secretlint.js";
export * from "./errors.js";
export { readableInstant } from "./dates.js";
export * from "./events/index.js";
export * from "./error-schema.js";
export { actsFor, authorizeRead, visibleOwners, type Viewer } from "./identity/authorize.js";
export * from "./identity/names.js";
export * from "./identity/schemas.js";
export * from "./inbox/index.js";
export * from "./notify/index.js";
export { authenticate } from "./identity/tokens.js";
export { PERMISSIONS, type Permission, requirePermission, tokenGrants } from "./identity/permissions.js";
export { bootstrapAdmin } from "./identity/users.js";
export { LIMITS } from "./limits.js";
export { createLogger, defaultLogger, describeError, type ErrorFields, type LogFields, type LogFormat, type Logger, logFormatFrom } from "./log.js";
export { CLIENT_CLOSED_REQUEST, clientAbortResponse, isClientAbort } from "./client-abort.js";
export { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts, databaseTimeoutsFrom, isUnavailable } from "./store/faults.js";
export * from "./operations/index.js";
export * from "./receipt/index.js";
export * from "./run/schemas.js";
export { type FollowedLink, type PeekedLink, type OpenedSession, SESSION_TTL_DAYS, SIGNIN_LINK_PATH, SIGNIN_LINK_TTL_MINUTES } from "./session/index.js";
export * from "./otlp/index.js";
export * from "./oauth/index.js";
export * from "./run/resource-uri.js";
export { parseTraceparent, type Traceparent } from "./run/traceparent.js";
export { SHARE_OPERATIONS, ShareReadInput, type LinkContext, type LinkOperation, type LinkOperationName } from "./share/operations.js";
export { migrate } from "./store/migrate.js";
export { openStore } from "./store/open.js";
export type { Sql, Store, StoreOptions } from "./store/port.js";
export * from "./team/schemas.js";
export * from "./view/index.js";
export { issuesFromZod, parseWith, ROOT_FIELD } from "./validation.js";
export { DsseEnvelope, IN_TOTO_PAYLOAD_TYPE, preAuthEncoding } from "./signing/dsse.js";
export { RECEIPT_PREDICATE_TYPE, STATEMENT_TYPE, type ReceiptPredicate, type Statement } from "./signing/in-toto.js";
export { ensureSigningKey, listPublicKeys } from "./signing/keys.js";
export * from "./signing/schemas.js";
export { verifyLine } from "./signing/verify.js";
export * from "./signing/verify-schemas.js";
export { lastSweep, sweepExpired, type SweepOptions, type SweepResult } from "./lifecycle/sweep.js";
export { LruMap } from "./lru.js";
export { type RunSweepResult, sweepExpiredRuns } from "./lifecycle/sweep-runs.js";
