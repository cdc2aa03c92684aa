import { cutWithEllipsis, isStorable } from "../text.js";
import { OAUTH_LIMITS } from "./constants.js";
import { OAuthError } from "./errors.js";
import { redirectUriIssue } from "./redirect-uri.js";

/** A client's name as a person will read it: no control or formatting characters (bidi overrides), one line, bounded. */
export function cleanClientName(raw: unknown, fallback: string): string {
  if (typeof raw !== "string") return fallback;
  const text = raw
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (text.length === 0 || !isStorable(text)) return fallback;
  return text.length > OAUTH_LIMITS.clientName ? cutWithEllipsis(text, OAUTH_LIMITS.clientName) : text;
}

/** The redirect URIs a client declared, each checked; the first bad one is refused by name. */
export function checkRedirectUris(raw: unknown, error: "invalid_redirect_uri" | "invalid_client"): string[] {
  if (!Array.isArray(raw) || raw.length === 0)
    throw new OAuthError(error === "invalid_client" ? "invalid_client" : "invalid_redirect_uri", "redirect_uris must be a non-empty array of URLs.");
  if (raw.length > OAUTH_LIMITS.redirectUris) throw new OAuthError(error, `redirect_uris lists more than ${OAUTH_LIMITS.redirectUris} URIs.`);
  raw.forEach((uri, i) => {
    const issue = redirectUriIssue(uri);
    if (issue) throw new OAuthError(error, `redirect_uris[${i}] ${issue}.`);
  });
  return raw as string[];
}
