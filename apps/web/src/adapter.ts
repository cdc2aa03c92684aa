import { type Cairn, CairnError, type CairnErrorCode, httpStatusOf, type Principal, type ServiceContext, toCairnError } from "@cairn/core";
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
 * Exhaustive: a new error code does not compile until the web decides how it reads. The
 * status is core's (HTTP_STATUS, the same as REST's); the words are the web's.
 */
export function failureOf(code: CairnErrorCode): WebFailure {
  return { status: httpStatusOf(code), ...wordsOf(code) };
}

function wordsOf(code: CairnErrorCode): Omit<WebFailure, "status"> {
  switch (code) {
    case "validation_failed":
    case "unknown_schema":
    case "idempotency_mismatch":
      return { title: "That did not work", message: "Something in the request was not valid.", showCoreMessage: true };
    case "conflict":
      return { title: "Not now", message: "The current state does not allow this.", showCoreMessage: true };
    case "already_decided":
      return { title: "Already answered", message: "Someone answered this first; the first answer is final.", showCoreMessage: true };
    case "expired":
      return { title: "Too late", message: "This question passed its deadline without an answer.", showCoreMessage: true };
    case "duplicate":
      return { title: "Already there", message: "An identical receipt already exists.", showCoreMessage: true };
    case "unauthenticated":
      return { title: "Sign in", message: "Sign in to see this page.", showCoreMessage: false };
    case "forbidden":
      return { title: "Not allowed", message: "You are signed in, but this is not yours to do.", showCoreMessage: true };
    case "not_found":
      return { title: "Not found", message: "There is nothing here, or it is not yours to see.", showCoreMessage: false };
    case "gone":
      return { title: "Expired", message: "This has expired. Receipts that someone retained stay; this one was not retained.", showCoreMessage: false };
    case "payload_too_large":
      return { title: "Too large", message: "The form sent more than the server accepts.", showCoreMessage: false };
    case "unsupported_media_type":
      return { title: "Not a form", message: "The server expected a form it could read.", showCoreMessage: false };
    case "rate_limited":
      return { title: "Too many", message: "Too many of these in a short time.", showCoreMessage: true };
    case "unavailable":
      return { title: "Unavailable", message: "Cairn cannot reach its database right now. Try again shortly.", showCoreMessage: false };
    case "internal":
      return { title: "Something went wrong", message: "The error was logged.", showCoreMessage: false };
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

/** The service context of a signed-in web request: the session's principal, surface `web`, and the request's id (so core's log lines carry the one the page shows). */
export const webContext = (cairn: Cairn, principal: Principal, requestId?: string): ServiceContext =>
  cairn.context(principal, "web", requestId === undefined ? {} : { requestId });
