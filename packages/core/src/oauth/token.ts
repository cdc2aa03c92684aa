import { randomBytes } from "node:crypto";
import type { CairnConfig } from "../context.js";
import { hashToken, newId } from "../ids.js";
import type { Sql, Store } from "../store/port.js";
import { isStorable } from "../text.js";
import { challengeOf, type Params, VERIFIER } from "./authorize.js";
import { type OAuthClient, resolveClient } from "./clients.js";
import {
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_TTL_SECONDS,
  OAUTH_LIMITS,
  REFRESH_REUSE_GRACE_SECONDS,
  REFRESH_TOKEN_PREFIX,
  REFRESH_TOKEN_TTL_SECONDS,
} from "./constants.js";
import type { Caller, DocumentSource } from "./document-source.js";
import { OAuthError } from "./errors.js";
import { mcpResourceOf } from "./metadata.js";
import { openReissue, sealReissue } from "./reissue.js";

/** The token endpoint's answer (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope?: string;
}

const TOKEN_FIELDS = [
  "grant_type",
  "code",
  "redirect_uri",
  "client_id",
  "code_verifier",
  "refresh_token",
  "resource",
  "scope",
  "token",
  "token_type_hint",
] as const;

function field(form: Params, name: (typeof TOKEN_FIELDS)[number]): string | undefined {
  const values = form.getAll(name);
  if (values.length > 1) throw new OAuthError("invalid_request", `${name} is repeated.`);
  const value = values[0];
  if (value === undefined || value === "") return undefined;
  if (value.length > OAUTH_LIMITS.uri) throw new OAuthError("invalid_request", `${name} is longer than ${OAUTH_LIMITS.uri} characters.`);
  if (!isStorable(value)) throw new OAuthError("invalid_request", `${name} contains a character that cannot be stored.`);
  return value;
}

const required = (form: Params, name: (typeof TOKEN_FIELDS)[number]) => {
  const value = field(form, name);
  if (value === undefined) throw new OAuthError("invalid_request", `${name} is required.`);
  return value;
};

const secret = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`;
const at = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

/** The token endpoint (RFC 6749 §3.2): the authorization-code and refresh-token grants, for public clients. */
export async function tokenRequest(
  store: Store,
  config: CairnConfig,
  form: Params,
  now: Date,
  documents: DocumentSource,
  caller: Caller,
): Promise<TokenResponse> {
  const grantType = required(form, "grant_type");
  if (grantType === "authorization_code") return exchangeCode(store, config, form, now, (id) => resolveClient(store, config, id, now, documents, caller));
  if (grantType === "refresh_token") return refreshGrant(store, config, form, now);
  throw new OAuthError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token.");
}

/** A resource the request names must be the one the grant is bound to (RFC 8707 §2.2). */
function checkResource(config: CairnConfig, form: Params, bound: string): void {
  const resource = field(form, "resource");
  if (resource !== undefined && resource !== bound) throw new OAuthError("invalid_target", `resource must be ${mcpResourceOf(config)}.`);
}

interface CodeRow {
  client_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  used_at: Date | null;
  token_id: string | null;
}

/**
 * Exchanges a code for an agent token of the person who allowed it. Spending the code is
 * the first write, so a code is tried once: a wrong verifier, client or redirect URI burns
 * it. A code presented again revokes what it was exchanged for (RFC 6749 §4.1.2, OAuth 2.1
 * §4.1.3): someone else had it.
 */
async function exchangeCode(
  store: Store,
  config: CairnConfig,
  form: Params,
  now: Date,
  resolve: (clientId: string) => Promise<OAuthClient>,
): Promise<TokenResponse> {
  const code = required(form, "code");
  const clientId = required(form, "client_id");
  const redirectUri = required(form, "redirect_uri");
  const verifier = required(form, "code_verifier");
  if (!VERIFIER.test(verifier)) throw new OAuthError("invalid_request", "code_verifier must be 43 to 128 unreserved characters (RFC 7636).");
  const client = await resolve(clientId);
  const refused = (why: string) => new OAuthError("invalid_grant", why);
  const outcome = await store.transaction(async (tx) => {
    const [row] = await tx.query<CodeRow>(
      `update oauth_codes set used_at = $2 where code_hash = $1 and used_at is null and expires_at > $2
       returning client_id, user_id, redirect_uri, code_challenge, resource, used_at, token_id`,
      [hashToken(code), now.toISOString()],
    );
    if (!row) {
      const [spent] = await tx.query<{ token_id: string | null }>("select token_id from oauth_codes where code_hash = $1 and used_at is not null", [
        hashToken(code),
      ]);
      if (spent?.token_id) await revokeGrant(tx, spent.token_id, now);
      return { error: refused(spent ? "The code was already used; what it gave has been revoked." : "The code is not valid or has expired.") };
    }
    if (row.client_id !== client.id) return { error: refused("The code was issued to another client.") };
    if (row.redirect_uri !== redirectUri) return { error: refused("redirect_uri differs from the one the code was issued for.") };
    if (challengeOf(verifier) !== row.code_challenge) return { error: refused("code_verifier does not match the code_challenge.") };
    try {
      checkResource(config, form, row.resource);
    } catch (err) {
      return { error: err as OAuthError };
    }
    const tokens = await issueGrant(tx, { userId: row.user_id, client: { id: client.id, name: client.name }, resource: row.resource }, now);
    await tx.query("update oauth_codes set token_id = $2 where code_hash = $1", [hashToken(code), tokens.tokenId]);
    // A person allowed it: no longer a stranger's registration that the cap or the cleanup may drop.
    await tx.query("update oauth_clients set granted_at = $2 where id = $1 and granted_at is null", [client.id, now.toISOString()]);
    return { tokens: tokens.response };
  });
  if ("error" in outcome) throw outcome.error;
  return outcome.tokens;
}

/** A new grant: one agent `tokens` row named after the client, its first access token and refresh token. */
async function issueGrant(tx: Sql, grant: { userId: string; client: { id: string; name: string }; resource: string }, now: Date) {
  const access = secret(ACCESS_TOKEN_PREFIX);
  const refresh = secret(REFRESH_TOKEN_PREFIX);
  const tokenId = newId("tok", now);
  await tx.query(
    `insert into tokens (id, user_id, name, kind, token_hash, created_at, expires_at, oauth_client_id, resource, last_used_at)
     values ($1, $2, $3, 'agent', $4, $5, $6, $7, $8, $5)`,
    [tokenId, grant.userId, grant.client.name, hashToken(access), now.toISOString(), at(now, ACCESS_TOKEN_TTL_SECONDS), grant.client.id, grant.resource],
  );
  await insertRefresh(tx, tokenId, refresh, now);
  return { tokenId, response: answer(access, refresh) };
}

async function insertRefresh(tx: Sql, tokenId: string, refresh: string, now: Date): Promise<void> {
  await tx.query("insert into oauth_refresh_tokens (token_hash, token_id, created_at, expires_at) values ($1, $2, $3, $4)", [
    hashToken(refresh),
    tokenId,
    now.toISOString(),
    at(now, REFRESH_TOKEN_TTL_SECONDS),
  ]);
}

const answer = (access: string, refresh: string, expiresIn = ACCESS_TOKEN_TTL_SECONDS): TokenResponse => ({
  access_token: access,
  token_type: "Bearer",
  expires_in: expiresIn,
  refresh_token: refresh,
});

/** Ends a grant: its token row is revoked, so its access token, sessions and refresh tokens stop at once. */
export async function revokeGrant(sql: Sql, tokenId: string, now: Date): Promise<void> {
  await sql.query("update tokens set revoked_at = coalesce(revoked_at, $2) where id = $1", [tokenId, now.toISOString()]);
}

interface RefreshRow {
  token_id: string;
  oauth_client_id: string | null;
  resource: string | null;
  revoked: boolean;
  used_at: Date | null;
  expired: boolean;
  reissue: string | null;
}

/**
 * The refresh-token grant: the refresh token is spent and replaced, and the grant's row
 * gets a new access token (the previous one stops working). A refresh token used a second
 * time revokes the whole grant (OAuth 2.1 §4.3.1): either the client or a thief holds a
 * copy, and the server cannot tell which. Except in the race of two processes of one
 * client: presented again by the same client within REFRESH_REUSE_GRACE_SECONDS, while the
 * pair it gave is still the newest, it answers that same pair (SPEC §37, ADR 0075).
 * A request from another client changes nothing.
 */
async function refreshGrant(store: Store, config: CairnConfig, form: Params, now: Date): Promise<TokenResponse> {
  const presented = required(form, "refresh_token");
  const clientId = required(form, "client_id");
  const refused = (why: string) => new OAuthError("invalid_grant", why);
  if (!presented.startsWith(REFRESH_TOKEN_PREFIX)) throw refused("The refresh token is not valid.");
  const hash = hashToken(presented);
  const outcome = await store.transaction(async (tx) => {
    const [row] = await tx.query<RefreshRow>(
      `select r.token_id, r.used_at, r.expires_at <= $2 as expired, r.reissue, t.oauth_client_id, t.resource, t.revoked_at is not null as revoked
         from oauth_refresh_tokens r join tokens t on t.id = r.token_id
        where r.token_hash = $1 for update of r`,
      [hash, now.toISOString()],
    );
    if (!row || row.expired || row.revoked) return { error: refused("The refresh token is not valid.") };
    if (row.oauth_client_id !== clientId) return { error: refused("The refresh token was issued to another client.") };
    if (row.used_at !== null) {
      const sinceMs = now.getTime() - new Date(row.used_at).getTime();
      const again = row.reissue !== null && sinceMs <= REFRESH_REUSE_GRACE_SECONDS * 1000 ? openReissue(presented, row.reissue) : null;
      if (again) return { tokens: answer(again.access, again.refresh, ACCESS_TOKEN_TTL_SECONDS - Math.max(0, Math.floor(sinceMs / 1000))) };
      await revokeGrant(tx, row.token_id, now);
      return { error: refused("The refresh token was already used; the grant has been revoked.") };
    }
    // Bound to the resource it was granted for: a server whose public URL changed does not renew it.
    if (row.resource !== mcpResourceOf(config)) return { error: refused("The grant was made for another resource.") };
    try {
      checkResource(config, form, row.resource);
    } catch (err) {
      return { error: err as OAuthError };
    }
    const access = secret(ACCESS_TOKEN_PREFIX);
    const refresh = secret(REFRESH_TOKEN_PREFIX);
    // The pair this token gave, sealed under the token itself, for the race; an older token's pair is no longer the newest.
    await tx.query("update oauth_refresh_tokens set reissue = null where token_id = $1 and reissue is not null", [row.token_id]);
    await tx.query("update oauth_refresh_tokens set used_at = $2, reissue = $3 where token_hash = $1", [
      hash,
      now.toISOString(),
      sealReissue(presented, { access, refresh }),
    ]);
    // Bounded housekeeping: this grant's refresh tokens spent or stale for longer than a refresh token lives.
    await tx.query("delete from oauth_refresh_tokens where token_id = $1 and expires_at < $2", [
      row.token_id,
      new Date(now.getTime() - REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
    ]);
    await tx.query("update tokens set token_hash = $2, expires_at = $3, last_used_at = $4 where id = $1", [
      row.token_id,
      hashToken(access),
      at(now, ACCESS_TOKEN_TTL_SECONDS),
      now.toISOString(),
    ]);
    await insertRefresh(tx, row.token_id, refresh, now);
    return { tokens: answer(access, refresh) };
  });
  if ("error" in outcome) throw outcome.error;
  return outcome.tokens;
}

/**
 * The revocation endpoint (RFC 7009): an access or refresh token of an OAuth grant ends
 * the grant. The answer is the same whatever was sent (§2.2: an unknown token is not an
 * error), so it tells a caller nothing. With `client_id`, only that client's grant.
 */
export async function revokeRequest(store: Store, form: Params, now: Date): Promise<void> {
  const token = required(form, "token");
  const clientId = field(form, "client_id");
  const hash = hashToken(token);
  await store.query(
    `update tokens set revoked_at = coalesce(revoked_at, $2)
      where oauth_client_id is not null and ($3::text is null or oauth_client_id = $3)
        and (token_hash = $1 or id = (select token_id from oauth_refresh_tokens where token_hash = $1))`,
    [hash, now.toISOString(), clientId ?? null],
  );
}
