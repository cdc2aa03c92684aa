import type { DecisionVia } from "./decision/schemas.js";
import type { Logger } from "./log.js";
import type { LruMap } from "./lru.js";
import type { OAuthSettings } from "./oauth/settings.js";
import type { RevisedPolicy } from "./policy/schemas.js";
import type { ReceiptGate } from "./receipt/custom-gate.js";
import type { Store } from "./store/port.js";

import type { Surface, TokenKind } from "./surfaces.js";

export { SURFACES, type Surface, type TokenKind } from "./surfaces.js";

/** Who is calling, derived on the server from the bearer token — never from the request body. */
export interface Principal {
  user: { id: string; name: string; is_admin: boolean };
  token: { id: string; name: string; kind: TokenKind };
  /** Names of the teams the user belongs to. */
  teams: string[];
}

export interface CairnConfig {
  /** Base of share links, e.g. http://127.0.0.1:7373 (no trailing slash). */
  publicUrl: string;
  /** Refuse loopback, private and link-local webhook targets (CAIRN_WEBHOOK_DENY_PRIVATE=1). */
  webhookDenyPrivate?: boolean;
  /** Which OAuth clients may ask a person for consent (CAIRN_OAUTH_CLIENTS, CAIRN_OAUTH_REGISTRATION; SPEC §26). */
  oauth?: OAuthSettings;
  /** Where email notifications go out (CAIRN_SMTP_URL, CAIRN_MAIL_FROM); absent: the server has no mail configured. */
  mail?: MailConfig;
  /** CAIRN_METRICS_TOKEN: a bearer that may read `/metrics` on the main port without being an administrator (ADR 0082). */
  metricsToken?: string;
}

/** The operator's SMTP server: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…` (implicit TLS). */
export interface MailConfig {
  smtpUrl: string;
  /** The From address (CAIRN_MAIL_FROM; default `Cairn <cairn@HOST of the public URL>`). */
  from: string;
}

/**
 * What one process remembers between requests (ADR 0027): principals by token hash and
 * owners' policies. Neither decides anything alone (identity/principal-cache.ts).
 */
export interface ReadCaches {
  principals: LruMap<string, Principal>;
  policies: LruMap<string, RevisedPolicy>;
}

/** Per-request options a surface passes along with the principal. */
export interface RequestOptions {
  /**
   * The client's retry key (REST: the `Idempotency-Key` header). receipt_create replays
   * the original outcome for the same key and input within 24 h, per user.
   */
  idempotencyKey?: string | undefined;
  /**
   * The W3C `traceparent` of the request (REST: the header; MCP: `_meta.traceparent`).
   * receipt_create links the receipt to the owner's run of that trace id (SPEC §21).
   */
  traceparent?: string | undefined;
  /**
   * Where a person's answer to an ask came from (SPEC §32, §33), when it is not the surface
   * itself: an email or ntfy link, a Slack button, the MCP App card. Set by that entry
   * point on the server, never read from the client. Default: the surface.
   */
  via?: DecisionVia | undefined;
  /** Aborted when the caller went away: a held request (decision_wait) lets go at once. */
  signal?: AbortSignal | undefined;
  /** The request's id (REST: `X-Request-Id`, echoed on the response); core's log lines carry it. Default: a new UUID. */
  requestId?: string | undefined;
}

/** Process-wide hooks an operator or a test sets once, on createCairn/openCairn. */
export interface CairnHooks {
  /** Operator gates run after the built-in content gates, before the duplicate check. */
  gates?: readonly ReceiptGate[];
  /** Where core and the surfaces log (see log.ts: it prints only explicit fields). Default: stderr. */
  logger?: Logger;
  /** Id source for drop receipts (tests pin it to compare responses byte for byte). */
  newId?: (prefix: string, now: Date) => string;
}

export interface ServiceContext extends RequestOptions, CairnHooks {
  requestId: string;
  store: Store;
  config: CairnConfig;
  principal: Principal;
  /** The principal came from this process's cache, not read for this request (ADR 0027): re-check before relying on it. */
  principalUnchecked?: true;
  /** What this process remembers between requests (identity/principal-cache.ts). */
  caches?: ReadCaches;
  surface: Surface;
  now: () => Date;
}
