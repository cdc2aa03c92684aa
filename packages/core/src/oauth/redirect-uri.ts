import { isStorable } from "../text.js";
import { OAUTH_LIMITS } from "./constants.js";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * Why a redirect URI cannot be registered, or null (SPEC §26): an absolute https URL, or
 * http on a loopback host (RFC 8252 §7.3, a native client's own listener); no fragment
 * (RFC 6749 §3.1.2), no credentials. Matching is exact, string for string, afterwards.
 */
export function redirectUriIssue(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.length === 0) return "must be a URL";
  if (raw.length > OAUTH_LIMITS.uri) return `is longer than ${OAUTH_LIMITS.uri} characters`;
  // The parser would percent-encode a NUL or a lone surrogate; the URI is matched and stored as sent, so it is refused.
  if (!isStorable(raw)) return "contains a character that cannot be stored";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "is not an absolute URL";
  }
  if (url.hash !== "" || raw.includes("#")) return "must not have a fragment";
  if (url.username !== "" || url.password !== "") return "must not carry credentials";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return "must be https, or http on a loopback address (127.0.0.1, [::1], localhost)";
}

/** The host a person sees on the consent page for a redirect URI. */
export const redirectHostOf = (uri: string) => {
  try {
    return new URL(uri).host;
  } catch {
    return uri;
  }
};

/** An http loopback redirect URI as sent: its host, its port (maybe none) and the rest, split without normalising. */
const LOOPBACK_URI = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::(\d{1,5}))?([/?].*)?$/s;

/**
 * Whether a redirect URI in a request is one the client registered: the same string, or,
 * for an http loopback URI, the same string on any port (RFC 8252 §7.3: a native client
 * listens on whatever port it was given). Host, path and query still match exactly.
 */
export function redirectUriMatches(registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true;
  const asked = LOOPBACK_URI.exec(presented);
  if (!asked || !portIsValid(asked[2])) return false;
  return registered.some((uri) => {
    const known = LOOPBACK_URI.exec(uri);
    return known !== null && known[1] === asked[1] && (known[3] ?? "") === (asked[3] ?? "");
  });
}

const portIsValid = (port: string | undefined) => port === undefined || (Number(port) >= 1 && Number(port) <= 65_535);
