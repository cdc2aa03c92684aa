import { type Cairn, CairnError, type CairnErrorCode, type Principal, type ServiceContext, toCairnError } from "@cairn/core";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export interface WebFailure {
  status: ContentfulStatusCode;
  title: string;
  /** What a person reading the page can do; the core's message is added only where it is written for them. */
  message: string;
  showCoreMessage: boolean;
}

/**
 * Exhaustive: a new error code does not compile until the web decides how it reads.
 * Statuses match REST's. An id the viewer may not read is the same 404 as a missing one.
 */
export function failureOf(code: CairnErrorCode): WebFailure {
  switch (code) {
    case "validation_failed":
    case "unknown_schema":
    case "idempotency_mismatch":
      return { status: 422, title: "That did not work", message: "Something in the request was not valid.", showCoreMessage: true };
    case "duplicate":
      return { status: 409, title: "Already there", message: "An identical receipt already exists.", showCoreMessage: true };
    case "unauthenticated":
      return { status: 401, title: "Sign in", message: "Sign in to see this page.", showCoreMessage: false };
    case "forbidden":
      return { status: 403, title: "Not allowed", message: "You are signed in, but this is not yours to do.", showCoreMessage: true };
    case "not_found":
      return { status: 404, title: "Not found", message: "There is nothing here, or it is not yours to see.", showCoreMessage: false };
    case "gone":
      return { status: 410, title: "Expired", message: "This has expired. Receipts that someone retained stay; this one was not retained.", showCoreMessage: false };
    case "payload_too_large":
      return { status: 413, title: "Too large", message: "The form sent more than the server accepts.", showCoreMessage: false };
    case "unsupported_media_type":
      return { status: 415, title: "Not a form", message: "The server expected a form it could read.", showCoreMessage: false };
    case "unavailable":
      return { status: 503, title: "Unavailable", message: "Cairn cannot reach its database right now. Try again shortly.", showCoreMessage: false };
    case "internal":
      return { status: 500, title: "Something went wrong", message: "The error was logged.", showCoreMessage: false };
  }
}

/** Mounted under the REST app, which sets the request id. */
export type WebEnv = { Variables: { requestId: string | undefined } };

/** The failure to show for any thrown value; an unknown error is logged (by code, never its message) and never shown. */
export function failureFor(cairn: Cairn, c: Context<WebEnv>, err: unknown): { failure: WebFailure; detail: string | null } {
  const cairnError = toCairnError(err);
  if (!(err instanceof CairnError)) cairn.log.error({ code: "internal", surface: "web", requestId: c.get("requestId") }, err);
  const failure = failureOf(cairnError.code);
  return { failure, detail: failure.showCoreMessage ? cairnError.message : null };
}

/** The service context of a signed-in web request: the session's principal, surface `web`. */
export const webContext = (cairn: Cairn, principal: Principal): ServiceContext => cairn.context(principal, "web");
