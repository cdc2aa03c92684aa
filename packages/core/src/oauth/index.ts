export type { ConnectedApp } from "./apps.js";
export type { AuthorizationRequest, AuthorizeCheck, Params as OAuthParams } from "./authorize.js";
export { ACCESS_TOKEN_PREFIX, ACCESS_TOKEN_TTL_SECONDS, CODE_TTL_SECONDS, OAUTH_LIMITS, OAUTH_PATHS, REFRESH_TOKEN_TTL_SECONDS } from "./constants.js";
export { OAuthError, type OAuthErrorCode } from "./errors.js";
export { mcpResourceOf, resourceMetadataUrlOf } from "./metadata.js";
export { redirectHostOf } from "./redirect-uri.js";
export { createOAuthService, type OAuthService } from "./service.js";
export { oauthSettingsFrom, type OAuthSettings } from "./settings.js";
export { CONSENT_WORDS } from "./consent.js";
