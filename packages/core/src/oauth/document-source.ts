import type { Logger } from "../log.js";
import { LruMap } from "../lru.js";
import { type ClientDocument, DocumentUnavailable, fetchClientDocument } from "./client-document.js";
import { OAUTH_LIMITS } from "./constants.js";
import { OAuthError } from "./errors.js";
import { CallerLimiter, tooManyRequests } from "./rate-limit.js";

/** Who asked, as far as the server can tell: the network peer's address (absent for in-process calls). */
export interface Caller {
  address?: string | undefined;
}

/** The one answer a stranger gets for any document the network did not deliver (SPEC §37). */
export const DOCUMENT_UNAVAILABLE = "The client's metadata document could not be fetched.";

/**
 * Where metadata documents come from, with what a process remembers between requests:
 * failures for a short while (asking again within that time fetches nothing) and how many
 * fetches each address caused. Stored documents are the caller's business (clients.ts).
 */
export interface DocumentSource {
  fetch(id: string, caller: Caller, nowMs: number, vouched: boolean): Promise<ClientDocument>;
}

export function createDocumentSource(log?: Logger): DocumentSource {
  const failures = new LruMap<string, { until: number; error: OAuthError }>(1_000);
  const limiter = new CallerLimiter(OAUTH_LIMITS.documentFetches);
  return {
    async fetch(id, caller, nowMs, vouched) {
      const failed = failures.get(id);
      if (failed && failed.until > nowMs) throw failed.error;
      if (caller.address !== undefined) {
        const limited = limiter.take(caller.address, nowMs);
        if (limited) throw tooManyRequests("client metadata documents fetched", limited.retryAfterSeconds);
      }
      try {
        return await fetchClientDocument(id, { allowPrivate: vouched });
      } catch (err) {
        if (!(err instanceof OAuthError || err instanceof DocumentUnavailable)) throw err;
        const error =
          err instanceof OAuthError
            ? err
            : // A client the operator listed is the operator's to debug; anyone else learns nothing of the network.
              new OAuthError("invalid_client", vouched ? `The client's metadata document could not be fetched: ${err.message}.` : DOCUMENT_UNAVAILABLE);
        if (err instanceof DocumentUnavailable) log?.info("oauth_client_document_unavailable", { host: hostOf(id), reason: err.message });
        failures.set(id, { until: nowMs + OAUTH_LIMITS.documentFailureCacheSeconds * 1000, error });
        throw error;
      }
    },
  };
}

const hostOf = (id: string) => {
  try {
    return new URL(id).host;
  } catch {
    return "";
  }
};
