/**
 * What an operator decides about OAuth clients (SPEC §26, ADR 0054). Unset, any client may
 * ask a person for consent: a client ID metadata document anywhere on https, or a client
 * that registered itself. `CAIRN_OAUTH_CLIENTS` (comma- or space-separated client ids, e.g.
 * `https://claude.ai/oauth/mcp-oauth-client-metadata`) allows only those; dynamic
 * registration is then closed. `CAIRN_OAUTH_REGISTRATION=closed` closes it on its own.
 * A listed client's document may live on a private address: the operator vouched for it
 * by naming it (ADR 0075). `CAIRN_OAUTH_MAX_CLIENTS` caps the clients no person allowed.
 */
export interface OAuthSettings {
  /** When set, the only client ids the authorization server accepts. */
  allowedClients?: readonly string[];
  /** false: `POST /oauth/register` is refused and not advertised. */
  registration?: boolean;
  /** At most this many clients no person allowed are kept (default OAUTH_LIMITS.unusedClients). */
  maxUnusedClients?: number;
}

export function oauthSettingsFrom(env: NodeJS.ProcessEnv): OAuthSettings {
  const listed = (env.CAIRN_OAUTH_CLIENTS ?? "")
    .split(/[\s,]+/)
    .map((id) => id.trim())
    .filter((id) => id.length > 0);
  const closed = env.CAIRN_OAUTH_REGISTRATION === "closed" || listed.length > 0;
  const rawCap = env.CAIRN_OAUTH_MAX_CLIENTS?.trim();
  const cap = rawCap ? Number(rawCap) : undefined;
  if (cap !== undefined && (!Number.isInteger(cap) || cap < 1)) {
    throw new Error(`CAIRN_OAUTH_MAX_CLIENTS must be a whole number of at least 1 (got ${JSON.stringify(rawCap)}).`);
  }
  return { ...(listed.length > 0 && { allowedClients: listed }), registration: !closed, ...(cap !== undefined && { maxUnusedClients: cap }) };
}
