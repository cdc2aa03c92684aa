/** The error codes of OAuth 2.1, RFC 7591 (registration) and RFC 8707 (resource indicators) that Cairn answers with. */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "access_denied"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "temporarily_unavailable";

/**
 * An OAuth refusal, in OAuth's own shape (`{error, error_description}`), not Cairn's
 * envelope: OAuth clients read `error`. `status` is what the JSON endpoints answer with.
 */
export class OAuthError extends Error {
  override name = "OAuthError";
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status: 400 | 401 | 403 | 429 | 503 = error === "invalid_client" ? 401 : 400,
    /** With 429 and 503: the seconds a client should wait (the Retry-After header). */
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
  }

  toBody(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}
