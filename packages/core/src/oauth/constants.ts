/** Where the authorization server's endpoints live, under CAIRN_PUBLIC_URL (SPEC §26). */
export const OAUTH_PATHS = {
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  revoke: "/oauth/revoke",
  resourceMetadata: "/.well-known/oauth-protected-resource",
  serverMetadata: "/.well-known/oauth-authorization-server",
} as const;

/** The protected resource: the MCP endpoint. */
export const MCP_PATH = "/mcp";

/** An authorization code is good for this long, once (SPEC §26). */
export const CODE_TTL_SECONDS = 5 * 60;
/** An access token lives an hour; the client refreshes it (ADR 0053). */
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
/** A refresh token unused for this long lapses, and with it the grant's way to go on. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

/** An access token is a Cairn bearer token with its own prefix, so the principal cache can skip it (it expires). */
export const ACCESS_TOKEN_PREFIX = "cairn_oat_";
export const REFRESH_TOKEN_PREFIX = "cairn_ort_";

/** Bounds on what a client sends (ADR 0053): bigger is not a client of ours. */
export const OAUTH_LIMITS = {
  /** Form and JSON bodies of the token, revocation and registration endpoints. */
  bodyBytes: 16 * 1024,
  /** One URI: a client id, a redirect URI, a resource. */
  uri: 2000,
  redirectUris: 10,
  clientName: 100,
  state: 1000,
  scope: 1000,
  /** A client ID metadata document: bytes read, and how long the fetch may take. */
  documentBytes: 16 * 1024,
  documentTimeoutMs: 5_000,
  /** A fetched metadata document is used again for this long before it is fetched anew. */
  documentCacheSeconds: 60 * 60,
  /** A document that could not be fetched or used is not asked for again within this long (SPEC §37). */
  documentFailureCacheSeconds: 60,
  /** Document fetches one address may cause: a burst, then so many an hour (ADR 0075). */
  documentFetches: { burst: 10, perHour: 120 },
  /** Registrations (`POST /oauth/register`) from one address: a burst, then so many an hour. */
  registrations: { burst: 20, perHour: 60 },
  /** Clients no person has allowed that the server keeps at most; past it, the oldest go first (CAIRN_OAUTH_MAX_CLIENTS). */
  unusedClients: 5_000,
} as const;

/** A spent refresh token presented again within this long by its own client gets the pair it was answered with (SPEC §37). */
export const REFRESH_REUSE_GRACE_SECONDS = 10;
