import { createHash, randomBytes } from "node:crypto";
import type { CairnConfig, Principal } from "../context.js";
import { hashToken } from "../ids.js";
import type { Sql } from "../store/port.js";
import { isStorable } from "../text.js";
import { type OAuthClient, resolveClient } from "./clients.js";
import { CODE_TTL_SECONDS, OAUTH_LIMITS } from "./constants.js";
import type { Caller, DocumentSource } from "./document-source.js";
import { OAuthError, type OAuthErrorCode } from "./errors.js";
import { issuerOf, mcpResourceOf } from "./metadata.js";
import { redirectUriMatches } from "./redirect-uri.js";

/** What a person is asked to allow: a checked authorization request (SPEC §26). */
export interface AuthorizationRequest {
  client: OAuthClient;
  redirect_uri: string;
  code_challenge: string;
  state: string | null;
  resource: string;
  scope: string | null;
}

/**
 * Either a request to show the person, or a refusal: `redirect` is where to send the
 * browser with the error (only once the client and its redirect URI are known to be
 * genuine, RFC 6749 §4.1.2.1); null means the error is shown on Cairn's own page.
 */
export type AuthorizeCheck = { ok: true; request: AuthorizationRequest } | { ok: false; error: OAuthError; redirect: string | null };

export interface Params {
  getAll(name: string): string[];
}

/** A PKCE S256 challenge: the base64url SHA-256 of the verifier, 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** A PKCE verifier (RFC 7636 §4.1): 43–128 unreserved characters. */
export const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export const challengeOf = (verifier: string) => createHash("sha256").update(verifier, "ascii").digest("base64url");

const PARAMS = ["response_type", "client_id", "redirect_uri", "code_challenge", "code_challenge_method", "state", "resource", "scope"] as const;

/** One value per parameter (RFC 6749 §3.1: a repeated parameter is an error), bounded and storable. */
function single(params: Params, name: (typeof PARAMS)[number]): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw new OAuthError("invalid_request", `${name} is repeated.`);
  const value = values[0];
  if (value === undefined || value === "") return undefined;
  const max = name === "state" ? OAUTH_LIMITS.state : name === "scope" ? OAUTH_LIMITS.scope : OAUTH_LIMITS.uri;
  if (value.length > max) throw new OAuthError("invalid_request", `${name} is longer than ${max} characters.`);
  if (!isStorable(value)) throw new OAuthError("invalid_request", `${name} contains a character that cannot be stored.`);
  return value;
}

/** The redirect back to the client: its own query kept, the answer's parameters added, and `iss` (RFC 9207). */
export function redirectWith(config: CairnConfig, redirectUri: string, answer: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(answer)) if (value !== null) url.searchParams.set(name, value);
  url.searchParams.set("iss", issuerOf(config));
  return url.toString();
}

/**
 * Checks an authorization request in the order RFC 6749 §4.1.2.1 asks: the client and the
 * redirect URI first (an error about either is never sent to the URI), then everything
 * else, whose errors go back to the client with its `state`.
 */
export async function checkAuthorizeRequest(
  sql: Sql,
  config: CairnConfig,
  params: Params,
  now: Date,
  documents: DocumentSource,
  caller: Caller,
): Promise<AuthorizeCheck> {
  let client: OAuthClient;
  let redirectUri: string | undefined;
  let state: string | null = null;
  try {
    client = await resolveClient(sql, config, single(params, "client_id"), now, documents, caller);
    redirectUri = single(params, "redirect_uri");
    if (!redirectUri) throw new OAuthError("invalid_request", "redirect_uri is required.");
    if (!redirectUriMatches(client.redirect_uris, redirectUri)) {
      throw new OAuthError("invalid_request", "redirect_uri is not one the client registered (they must match exactly; a loopback one on any port).");
    }
  } catch (err) {
    if (err instanceof OAuthError) return { ok: false, error: err, redirect: null };
    throw err;
  }
  const refuse = (error: OAuthError): AuthorizeCheck => ({
    ok: false,
    error,
    redirect: redirectWith(config, redirectUri, { error: error.error, error_description: error.description, state }),
  });
  try {
    state = single(params, "state") ?? null;
    const responseType = single(params, "response_type");
    if (responseType !== "code") {
      const code: OAuthErrorCode = responseType === undefined ? "invalid_request" : "unsupported_response_type";
      return refuse(new OAuthError(code, 'response_type must be "code".'));
    }
    const challenge = single(params, "code_challenge");
    if (!challenge) return refuse(new OAuthError("invalid_request", "code_challenge is required (PKCE with S256)."));
    if (single(params, "code_challenge_method") !== "S256") {
      return refuse(new OAuthError("invalid_request", 'code_challenge_method must be "S256".'));
    }
    if (!S256_CHALLENGE.test(challenge)) return refuse(new OAuthError("invalid_request", "code_challenge must be 43 base64url characters (S256)."));
    const resource = single(params, "resource");
    if (resource !== mcpResourceOf(config)) {
      return refuse(
        new OAuthError(
          "invalid_target",
          resource ? `resource must be this server's MCP endpoint, ${mcpResourceOf(config)}.` : `resource is required: ${mcpResourceOf(config)}.`,
        ),
      );
    }
    const scope = single(params, "scope") ?? null;
    return { ok: true, request: { client, redirect_uri: redirectUri, code_challenge: challenge, state, resource, scope } };
  } catch (err) {
    if (err instanceof OAuthError) return refuse(err);
    throw err;
  }
}

/**
 * The person allowed it: a single-use code bound to the client, the redirect URI, the
 * challenge and the resource, valid five minutes, and where to send the browser with it.
 * Codes spent or stale for an hour are deleted as new ones are made (bounded housekeeping).
 */
export async function approveAuthorization(sql: Sql, config: CairnConfig, request: AuthorizationRequest, principal: Principal, now: Date): Promise<string> {
  // Consent is a person's act (ADR 0018): only a human token's session gets here, and only one may grant.
  if (principal.token.kind !== "human") throw new OAuthError("access_denied", "Only a person signed in with a human token can connect an app.", 403);
  const code = randomBytes(32).toString("base64url");
  const expires = new Date(now.getTime() + CODE_TTL_SECONDS * 1000);
  await sql.query("delete from oauth_codes where expires_at < $1", [new Date(now.getTime() - 3600_000).toISOString()]);
  await sql.query(
    `insert into oauth_codes (code_hash, client_id, user_id, redirect_uri, code_challenge, resource, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      hashToken(code),
      request.client.id,
      principal.user.id,
      request.redirect_uri,
      request.code_challenge,
      request.resource,
      now.toISOString(),
      expires.toISOString(),
    ],
  );
  return redirectWith(config, request.redirect_uri, { code, state: request.state });
}

/** The person said no: `access_denied` and the client's state go back to it (RFC 6749 §4.1.2.1). */
export function denyAuthorization(config: CairnConfig, request: AuthorizationRequest): string {
  return redirectWith(config, request.redirect_uri, {
    error: "access_denied",
    error_description: "The person declined to connect this app.",
    state: request.state,
  });
}
