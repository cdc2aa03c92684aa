import type { CairnConfig, Principal } from "../context.js";
import type { Store } from "../store/port.js";
import { type ConnectedApp, listConnectedApps } from "./apps.js";
import { approveAuthorization, type AuthorizationRequest, type AuthorizeCheck, checkAuthorizeRequest, denyAuthorization, type Params } from "./authorize.js";
import { registerClient } from "./clients.js";
import { authorizationServerMetadata, bearerChallenge, protectedResourceMetadata } from "./metadata.js";
import { revokeRequest, type TokenResponse, tokenRequest } from "./token.js";

/** Cairn as its own OAuth 2.1 authorization server for /mcp (SPEC §26, ADR 0053): what the REST and web routes call. */
export interface OAuthService {
  protectedResourceMetadata(): ReturnType<typeof protectedResourceMetadata>;
  authorizationServerMetadata(): ReturnType<typeof authorizationServerMetadata>;
  /** The `WWW-Authenticate` value of a 401 from /mcp. */
  challenge(options?: { invalidToken?: boolean }): string;
  register(body: unknown): ReturnType<typeof registerClient>;
  checkAuthorize(params: Params): Promise<AuthorizeCheck>;
  /** Where to send the browser once the person allowed (with a code) or denied (with access_denied). */
  decide(request: AuthorizationRequest, principal: Principal, allow: boolean): Promise<string>;
  token(form: Params): Promise<TokenResponse>;
  revoke(form: Params): Promise<void>;
  connectedApps(principal: Principal): Promise<ConnectedApp[]>;
}

export function createOAuthService(store: Store, config: CairnConfig, now: () => Date): OAuthService {
  return {
    protectedResourceMetadata: () => protectedResourceMetadata(config),
    authorizationServerMetadata: () => authorizationServerMetadata(config),
    challenge: (options) => bearerChallenge(config, options),
    register: (body) => registerClient(store, config, body, now()),
    checkAuthorize: (params) => checkAuthorizeRequest(store, config, params, now()),
    decide: async (request, principal, allow) => (allow ? approveAuthorization(store, config, request, principal, now()) : denyAuthorization(config, request)),
    token: (form) => tokenRequest(store, config, form, now()),
    revoke: (form) => revokeRequest(store, form, now()),
    connectedApps: (principal) => listConnectedApps(store, principal.user.id),
  };
}
