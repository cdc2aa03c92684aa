import { capIssues, type Issue, moreCount, ROOT_FIELD } from "./validation.js";

export type { Issue } from "./validation.js";

/**
 * The closed set of error codes every surface speaks. Each adapter maps them with an
 * exhaustive switch, so adding a code fails the build until every surface handles it.
 */
export const ERROR_CODES = [
  "validation_failed",
  "unknown_schema",
  "duplicate",
  "idempotency_mismatch",
  "conflict",
  "already_decided",
  "expired",
  "unauthenticated",
  "forbidden",
  "not_found",
  "gone",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "unavailable",
  "internal",
] as const;
export type CairnErrorCode = (typeof ERROR_CODES)[number];

/** What each code means to a caller; surfaces document their answers with these (OpenAPI responses). */
export const ERROR_MEANINGS: { readonly [C in CairnErrorCode]: string } = {
  validation_failed: "The input failed validation: the issues name each field, the reason and the limit.",
  unknown_schema: "The receipt names a schema this server does not know.",
  duplicate: "An identical receipt from the same owner was stored in the last 24 hours: `existing` names it.",
  idempotency_mismatch: "The Idempotency-Key was used with another input in the last 24 hours.",
  conflict:
    "The current state refuses the request, and the message says what changed or until when: what it depends on (the owner's policy) changed during every attempt, and nothing was stored — send it again; or a limit of the current state (a subscription already signs with three secrets).",
  already_decided: "The receipt's ask was already answered: the message names who chose what and when. The first answer is final.",
  expired: "The receipt's ask passed its answer_by without an answer: it can no longer be answered.",
  unauthenticated: "Missing, unknown or revoked bearer token.",
  forbidden: "Not allowed for this caller, or the token lacks the permission the operation needs.",
  not_found: "Not found, or not visible to this caller.",
  gone: "The artifact has expired.",
  payload_too_large: "The request body is larger than the limit.",
  unsupported_media_type: "The request body is not JSON (Content-Type).",
  rate_limited: "Too many of these in a short time: the message names the limit and when to try again.",
  unavailable: "The database is unreachable or too slow; retry later.",
  internal: "The server failed; the error was logged and its details are never sent.",
};

/**
 * The HTTP status of each code, for every HTTP surface (REST, the web): one table, so
 * the API and the pages cannot disagree. An id the caller may not read is the same 404
 * as a missing one.
 */
export const HTTP_STATUS = {
  validation_failed: 422,
  unknown_schema: 422,
  idempotency_mismatch: 422,
  duplicate: 409,
  conflict: 409,
  already_decided: 409,
  expired: 409,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
} as const satisfies { readonly [C in CairnErrorCode]: number };
export type HttpErrorStatus = (typeof HTTP_STATUS)[CairnErrorCode];

export const httpStatusOf = (code: CairnErrorCode): HttpErrorStatus => HTTP_STATUS[code];

/** The Retry-After (seconds) every HTTP surface sends with `unavailable`. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export interface ExistingArtifactRef {
  id: string;
  url: string;
}

/**
 * The drop receipt a refusal left. Its whole shape is `DropReceipt` (drops/schemas.ts);
 * errors sit below every area, so only the fields the surfaces read are named here.
 */
export interface RefusalDrop {
  readonly id: string;
  readonly category: string;
  readonly cause: string;
  readonly next_action: string;
  readonly fields: readonly string[];
  readonly [field: string]: unknown;
}

export interface CairnErrorBody {
  code: CairnErrorCode;
  message: string;
  issues?: Issue[];
  drop?: RefusalDrop;
  existing?: ExistingArtifactRef;
  /** The request's id, as answered in `X-Request-Id` and written in the server's log line (SPEC §30): what a user quotes. */
  request_id?: string;
}

export class CairnError extends Error {
  readonly code: CairnErrorCode;
  readonly issues?: Issue[];
  drop?: RefusalDrop;
  readonly existing?: ExistingArtifactRef;

  constructor(code: CairnErrorCode, message: string, extra: { issues?: Issue[]; drop?: RefusalDrop; existing?: ExistingArtifactRef } = {}) {
    super(message);
    this.name = "CairnError";
    this.code = code;
    // Bounded here, once, so no error on any surface carries more than LIMITS.issuesReported paths.
    if (extra.issues) this.issues = capIssues(extra.issues);
    if (extra.drop) this.drop = extra.drop;
    if (extra.existing) this.existing = extra.existing;
  }

  /** The wire shape shared by REST, MCP and the CLI's --json output. Key order is fixed. */
  /** The one wire shape of an error; with `requestId`, the id a user can quote (every surface that has one passes it). */
  toBody(requestId?: string): CairnErrorBody {
    const body: CairnErrorBody = { code: this.code, message: this.message };
    if (this.issues) body.issues = this.issues;
    if (this.drop) body.drop = this.drop;
    if (this.existing) body.existing = this.existing;
    if (requestId !== undefined) body.request_id = requestId;
    return body;
  }
}

export const notFound = (what = "artifact", key = "id") => new CairnError("not_found", `No ${what} with that ${key} is visible to you.`);
export const forbidden = (message: string) => new CairnError("forbidden", message);
export const unauthenticated = (message = "A valid bearer token is required.") => new CairnError("unauthenticated", message);

export const unsupportedMediaType = (got: string | undefined) =>
  new CairnError(
    "unsupported_media_type",
    `This route takes a JSON body (Content-Type: application/json), not ${got ? JSON.stringify(got.slice(0, 100)) : "a body without a Content-Type"}.`,
    { issues: [{ field: ROOT_FIELD, reason: "must be sent as application/json" }] },
  );

/** The database is down or not answering; nothing about the request was wrong. */
export const unavailable = () => new CairnError("unavailable", "Cairn cannot reach its database right now (down or not answering). Try again shortly.");

/** Too many of one thing in a short time (429): the issue names the field, the limit and when it frees up. */
export const rateLimited = (issue: Issue) => new CairnError("rate_limited", describeIssues([issue]), { issues: [issue] });

/** A write that found what it depends on changed on each of its attempts: the database answered, nothing was stored. */
export const conflict = (message: string) => new CairnError("conflict", message);

export function validationFailed(issues: Issue[], message?: string): CairnError {
  return new CairnError("validation_failed", message ?? describeIssues(issues), { issues });
}

export function describeIssues(issues: Issue[]): string {
  const first = issues[0];
  if (!first) return "The input is not valid.";
  const total = issues.reduce((n, i) => n + (moreCount(i.field) || 1), 0);
  const more = total > 1 ? ` (and ${total - 1} more)` : "";
  return `${first.field}: ${first.reason}${more}`;
}

/** Anything that is not a CairnError becomes `internal`; its message never reaches a client. */
export function toCairnError(err: unknown): CairnError {
  if (err instanceof CairnError) return err;
  return new CairnError("internal", "Something went wrong on the server. The error was logged.");
}
