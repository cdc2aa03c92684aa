import type { CairnConfig, Principal } from "../context.js";
import type { Logger } from "../log.js";
import type { Store } from "../store/port.js";
import { type ConnectedApp, listConnectedApps } from "./apps.js";
import { type AuthorizationRequest, type AuthorizeCheck, approveAuthorization, checkAuthorizeRequest, denyAuthorization, type Params } from "./authorize.js";
import { registerClient } from "./clients.js";
import { OAUTH_LIMITS } from "./constants.js";
import { type Caller, createDocumentSource } from "./document-source.js";
import { authorizationServerMetadata, bearerChallenge, protectedResourceMetadata } from "./metadata.js";
import { CallerLimiter } from "./rate-limit.js";
import { revokeRequest, type TokenResponse, tokenRequest } from "./token.js";

/**
 * Cairn as its own OAuth 2.1 authorization server for /mcp (SPEC §26, ADR 0053): what the
 * REST and web routes call. `caller` is the network peer (SPEC §37: registration and
 * document fetches are limited per address); in-process calls pass none.
 */
export interface OAuthService {
  protectedResourceMetadata(): ReturnType<typeof protectedResourceMetadata>;
  authorizationServerMetadata(): ReturnType<typeof authorizationServerMetadata>;
  /** The `WWW-Authenticate` value of a 401 from /mcp. */
  challenge(options?: { invalidToken?: boolean }): string;
  register(body: unknown, caller?: Caller): ReturnType<typeof registerClient>;
  checkAuthorize(params: Params, caller?: Caller): Promise<AuthorizeCheck>;
  /** Where to send the browser once the person allowed (with a code) or denied (with access_denied). */
  decide(request: AuthorizationRequest, principal: Principal, allow: boolean): Promise<string>;
  token(form: Params, caller?: Caller): Promise<TokenResponse>;
  revoke(form: Params): Promise<void>;
  connectedApps(principal: Principal): Promise<ConnectedApp[]>;
}

export function createOAuthService(store: Store, config: CairnConfig, now: () => Date, log?: Logger): OAuthService {
  const documents = createDocumentSource(log);
  const registrations = new CallerLimiter(OAUTH_LIMITS.registrations);
  return {
    protectedResourceMetadata: () => protectedResourceMetadata(config),
    authorizationServerMetadata: () => authorizationServerMetadata(config),
    challenge: (options) => bearerChallenge(config, options),
    register: (body, caller = {}) => registerClient(store, config, body, now(), { limiter: registrations, caller }),
    checkAuthorize: (params, caller = {}) => checkAuthorizeRequest(store, config, params, now(), documents, caller),
    decide: async (request, principal, allow) => (allow ? approveAuthorization(store, config, request, principal, now()) : denyAuthorization(config, request)),
    token: (form, caller = {}) => tokenRequest(store, config, form, now(), documents, caller),
    revoke: (form) => revokeRequest(store, form, now()),
    connectedApps: (principal) => listConnectedApps(store, principal.user.id),
  };
}
