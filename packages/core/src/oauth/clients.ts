import type { CairnConfig } from "../context.js";
import { newId } from "../ids.js";
import type { Sql } from "../store/port.js";
import { isStorable } from "../text.js";
import { checkRedirectUris, cleanClientName } from "./client-fields.js";
import { OAUTH_LIMITS } from "./constants.js";
import type { Caller, DocumentSource } from "./document-source.js";
import { OAuthError } from "./errors.js";
import { type CallerLimiter, tooManyRequests } from "./rate-limit.js";

/** A client as the authorization server knows it: registered (RFC 7591) or described by its metadata document. */
export interface OAuthClient {
  id: string;
  kind: "registered" | "metadata";
  name: string;
  redirect_uris: string[];
}

interface ClientRow extends OAuthClient {
  fetched_at: Date;
}

/** Whether a client id names a metadata document (an https URL with a path), per the CIMD draft. */
export const isMetadataClientId = (id: string) => id.startsWith("https://");

/**
 * The client behind a client_id: a registered one from the database, or a metadata
 * document (from the database while fresh, else fetched again from a public address, or
 * from any address when the operator listed it in CAIRN_OAUTH_CLIENTS: ADR 0075).
 * Refused with `invalid_client` when it is unknown, not allowed by the operator or its
 * document cannot be used.
 */
export async function resolveClient(sql: Sql, config: CairnConfig, rawId: unknown, now: Date, documents: DocumentSource, caller: Caller): Promise<OAuthClient> {
  if (typeof rawId !== "string" || rawId.length === 0) throw new OAuthError("invalid_request", "client_id is required.");
  if (rawId.length > OAUTH_LIMITS.uri || !isStorable(rawId)) throw new OAuthError("invalid_client", "client_id is not a client of this server.");
  const allowed = config.oauth?.allowedClients;
  if (allowed && !allowed.includes(rawId))
    throw new OAuthError("invalid_client", "This server accepts only the clients its operator listed (CAIRN_OAUTH_CLIENTS).");
  const [row] = await sql.query<ClientRow>("select id, kind, name, redirect_uris, fetched_at from oauth_clients where id = $1", [rawId]);
  if (!isMetadataClientId(rawId)) {
    if (row?.kind !== "registered") throw new OAuthError("invalid_client", "client_id is not a client of this server.");
    return toClient(row);
  }
  const fresh = row && now.getTime() - new Date(row.fetched_at).getTime() < OAUTH_LIMITS.documentCacheSeconds * 1000;
  if (row && fresh) return toClient(row);
  const document = await documents.fetch(rawId, caller, now.getTime(), allowed?.includes(rawId) ?? false);
  const client: OAuthClient = { id: rawId, kind: "metadata", name: document.name, redirect_uris: document.redirect_uris };
  await sql.query(
    `insert into oauth_clients (id, kind, name, redirect_uris, document, created_at, fetched_at)
     values ($1, 'metadata', $2, $3::jsonb, $4::jsonb, $5, $5)
     on conflict (id) do update set name = excluded.name, redirect_uris = excluded.redirect_uris,
       document = excluded.document, fetched_at = excluded.fetched_at`,
    [rawId, client.name, JSON.stringify(client.redirect_uris), JSON.stringify(document.kept), now.toISOString()],
  );
  // A stored document is a row a stranger caused too: the same cap holds it.
  await pruneUnusedClients(sql, config, now, rawId);
  return client;
}

const toClient = (row: ClientRow): OAuthClient => ({ id: row.id, kind: row.kind, name: row.name, redirect_uris: row.redirect_uris });

/** A client no person allowed within this many days is deleted (the client registers again if it returns). */
const UNUSED_CLIENT_DAYS = 7;

const GRANT_TYPES = new Set(["authorization_code", "refresh_token"]);

/** What bounds registration: the per-address limiter of this process, and who is asking. */
export interface RegistrationGate {
  limiter: CallerLimiter;
  caller: Caller;
}

/**
 * Dynamic Client Registration (RFC 7591) of a public client: redirect URIs (https or
 * loopback) and a name; any secret-based authentication method is answered with `none`,
 * the only one this server has (§3.2.1 lets the server replace what it does not support).
 * Rate-limited per address, and the clients nobody allowed are capped (SPEC §37).
 */
export async function registerClient(sql: Sql, config: CairnConfig, body: unknown, now: Date, gate: RegistrationGate) {
  if (config.oauth?.registration === false) {
    throw new OAuthError(
      "invalid_client_metadata",
      "Dynamic registration is closed on this server; use a client ID metadata document the operator allowed.",
      403,
    );
  }
  if (gate.caller.address !== undefined) {
    const limited = gate.limiter.take(gate.caller.address, now.getTime());
    if (limited) throw tooManyRequests("client registrations", limited.retryAfterSeconds);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new OAuthError("invalid_client_metadata", "The registration must be a JSON object.");
  const meta = body as Record<string, unknown>;
  const redirectUris = checkRedirectUris(meta.redirect_uris, "invalid_redirect_uri");
  const grantTypes = meta.grant_types ?? ["authorization_code", "refresh_token"];
  if (!Array.isArray(grantTypes) || grantTypes.some((g) => typeof g !== "string" || !GRANT_TYPES.has(g))) {
    throw new OAuthError("invalid_client_metadata", "grant_types may list only authorization_code and refresh_token.");
  }
  const responseTypes = meta.response_types ?? ["code"];
  if (!Array.isArray(responseTypes) || responseTypes.some((r) => r !== "code")) {
    throw new OAuthError("invalid_client_metadata", 'response_types may list only "code".');
  }
  const name = cleanClientName(meta.client_name, new URL(redirectUris[0] as string).host);
  const id = newId("cli", now);
  const stored = { client_name: name, redirect_uris: redirectUris, grant_types: grantTypes, response_types: responseTypes };
  await sql.query(
    `insert into oauth_clients (id, kind, name, redirect_uris, document, created_at, fetched_at)
     values ($1, 'registered', $2, $3::jsonb, $4::jsonb, $5, $5)`,
    [id, name, JSON.stringify(redirectUris), JSON.stringify(stored), now.toISOString()],
  );
  await pruneUnusedClients(sql, config, now, id);
  return {
    client_id: id,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    ...stored,
    token_endpoint_auth_method: "none",
  };
}

/**
 * Bounded housekeeping, through the partial index of clients no person allowed: those a
 * week old go, and past the cap the oldest go first, never the one just made. A client a
 * person allowed is never deleted here (its grant names it).
 */
async function pruneUnusedClients(sql: Sql, config: CairnConfig, now: Date, keep: string): Promise<void> {
  const cap = config.oauth?.maxUnusedClients ?? OAUTH_LIMITS.unusedClients;
  await sql.query("delete from oauth_clients where granted_at is null and created_at < $1", [
    new Date(now.getTime() - UNUSED_CLIENT_DAYS * 86_400_000).toISOString(),
  ]);
  await sql.query(
    `delete from oauth_clients where id in (
       select id from oauth_clients where granted_at is null and id <> $2
        order by created_at desc, id desc offset $1)`,
    [Math.max(0, cap - 1), keep],
  );
}
