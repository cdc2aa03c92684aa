/**
 * What an operator decides about OAuth clients (SPEC §26, ADR 0054). Unset, any client may
 * ask a person for consent: a client ID metadata document anywhere on https, or a client
 * that registered itself. `CAIRN_OAUTH_CLIENTS` (comma- or space-separated client ids, e.g.
 * `https://claude.ai/oauth/mcp-oauth-client-metadata`) allows only those; dynamic
 * registration is then closed. `CAIRN_OAUTH_REGISTRATION=closed` closes it on its own.
 */
export interface OAuthSettings {
  /** When set, the only client ids the authorization server accepts. */
  allowedClients?: readonly string[];
  /** false: `POST /oauth/register` is refused and not advertised. */
  registration?: boolean;
}

export function oauthSettingsFrom(env: NodeJS.ProcessEnv): OAuthSettings {
  const listed = (env.CAIRN_OAUTH_CLIENTS ?? "")
    .split(/[\s,]+/)
    .map((id) => id.trim())
    .filter((id) => id.length > 0);
  const closed = env.CAIRN_OAUTH_REGISTRATION === "closed" || listed.length > 0;
  return { ...(listed.length > 0 && { allowedClients: listed }), registration: !closed };
}
