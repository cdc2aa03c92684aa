import type { DropReceipt } from "./drops/schemas.js";
import { capIssues, moreCount, ROOT_FIELD } from "./validation.js";

/** One thing wrong with an input: a dotted path, a reason a person can act on, and the limit when one was exceeded. */
export interface Issue {
  field: string;
  reason: string;
  limit?: number;
}

/**
 * The closed set of error codes every surface speaks. Each adapter maps them with an
 * exhaustive switch, so adding a code fails the build until every surface handles it.
 */
export const ERROR_CODES = [
  "validation_failed",
  "unknown_schema",
  "duplicate",
  "idempotency_mismatch",
  "unauthenticated",
  "forbidden",
  "not_found",
  "gone",
  "payload_too_large",
  "unsupported_media_type",
  "unavailable",
  "internal",
] as const;
export type CairnErrorCode = (typeof ERROR_CODES)[number];

export interface ExistingArtifactRef {
  id: string;
  url: string;
}

export interface CairnErrorBody {
  code: CairnErrorCode;
  message: string;
  issues?: Issue[];
  drop?: DropReceipt;
  existing?: ExistingArtifactRef;
}

export class CairnError extends Error {
  readonly code: CairnErrorCode;
  readonly issues?: Issue[];
  drop?: DropReceipt;
  readonly existing?: ExistingArtifactRef;

  constructor(
    code: CairnErrorCode,
    message: string,
    extra: { issues?: Issue[]; drop?: DropReceipt; existing?: ExistingArtifactRef } = {},
  ) {
    super(message);
    this.name = "CairnError";
    this.code = code;
    // Bounded here, once, so no error on any surface carries more than LIMITS.issuesReported paths.
    if (extra.issues) this.issues = capIssues(extra.issues);
    if (extra.drop) this.drop = extra.drop;
    if (extra.existing) this.existing = extra.existing;
  }

  /** The wire shape shared by REST, MCP and the CLI's --json output. Key order is fixed. */
  toBody(): CairnErrorBody {
    const body: CairnErrorBody = { code: this.code, message: this.message };
    if (this.issues) body.issues = this.issues;
    if (this.drop) body.drop = this.drop;
    if (this.existing) body.existing = this.existing;
    return body;
  }
}

export const notFound = (what = "artifact", key = "id") =>
  new CairnError("not_found", `No ${what} with that ${key} is visible to you.`);
export const forbidden = (message: string) => new CairnError("forbidden", message);
export const unauthenticated = (message = "A valid bearer token is required.") =>
  new CairnError("unauthenticated", message);

export const unsupportedMediaType = (got: string | undefined) =>
  new CairnError(
    "unsupported_media_type",
    `This route takes a JSON body (Content-Type: application/json), not ${got ? JSON.stringify(got.slice(0, 100)) : "a body without a Content-Type"}.`,
    { issues: [{ field: ROOT_FIELD, reason: "must be sent as application/json" }] },
  );

/** The database is down or not answering; nothing about the request was wrong. */
export const unavailable = () =>
  new CairnError("unavailable", "Cairn cannot reach its database right now (down or not answering). Try again shortly.");

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
