import type { CairnConfig } from "../context.js";
import { MCP_PATH, OAUTH_PATHS } from "./constants.js";

/** The issuer identifier of Cairn's authorization server: the public URL itself (RFC 8414 §2, RFC 9207). */
export const issuerOf = (config: CairnConfig) => config.publicUrl;

/** The one protected resource, the MCP endpoint: what `resource` (RFC 8707) must name. */
export const mcpResourceOf = (config: CairnConfig) => `${config.publicUrl}${MCP_PATH}`;

/** Where the MCP endpoint's protected resource metadata is (RFC 9728 §3.1: the resource's path after the well-known name). */
export const resourceMetadataUrlOf = (config: CairnConfig) => `${config.publicUrl}${OAUTH_PATHS.resourceMetadata}${MCP_PATH}`;

/** RFC 9728 protected resource metadata of /mcp. */
export function protectedResourceMetadata(config: CairnConfig) {
  return {
    resource: mcpResourceOf(config),
    authorization_servers: [issuerOf(config)],
    bearer_methods_supported: ["header"],
    resource_name: "Cairn",
    resource_documentation: `${config.publicUrl}/docs`,
  };
}

/** RFC 8414 authorization server metadata (SPEC §26): the code grant with S256 PKCE and refresh, public clients. */
export function authorizationServerMetadata(config: CairnConfig) {
  const base = config.publicUrl;
  return {
    issuer: issuerOf(config),
    authorization_endpoint: `${base}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${base}${OAUTH_PATHS.token}`,
    ...(config.oauth?.registration !== false && { registration_endpoint: `${base}${OAUTH_PATHS.register}` }),
    revocation_endpoint: `${base}${OAUTH_PATHS.revoke}`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/docs`,
  };
}

/**
 * The challenge of a request to /mcp without a valid token (RFC 6750 §3, RFC 9728 §5.1):
 * the realm Cairn always named, and where the resource's metadata is. `invalid_token`
 * when a token was sent but is not (or no longer) valid.
 */
export function bearerChallenge(config: CairnConfig, { invalidToken = false } = {}): string {
  return `Bearer realm="cairn", resource_metadata="${resourceMetadataUrlOf(config)}"${invalidToken ? ', error="invalid_token"' : ""}`;
}
