import { randomUUID } from "node:crypto";
import type { CairnConfig, CairnHooks, Principal, RequestOptions, ServiceContext, Surface } from "./context.js";
import { type CairnError, conflict, forbidden, notFound, unauthenticated } from "./errors.js";
import { checkReadiness, type Readiness } from "./health/readiness.js";
import { cachedPrincipal, INVALID_TOKEN, newReadCaches } from "./identity/principal-cache.js";
import type { CreatedToken } from "./identity/schemas.js";
import { authenticate, bearerOf } from "./identity/tokens.js";
import { type BootstrapOptions, bootstrapAdmin } from "./identity/users.js";
import { defaultLogger, type Logger } from "./log.js";
import { isMetricsToken, mayReadMetrics, renderMetrics } from "./metrics/render.js";
import { confirmChannel, peekConfirmation } from "./notify/channels.js";
import { inboxFeed } from "./notify/feed.js";
import { ACCESS_TOKEN_PREFIX } from "./oauth/constants.js";
import { createOAuthService, type OAuthService } from "./oauth/service.js";
import { invokeOperation, refuseUnreadableInput } from "./operations/invoke.js";
import { OPERATIONS, type OperationName, type OperationOutput } from "./runtime/registry.js";
import { startWorker, type Worker, type WorkerOptions } from "./runtime/worker.js";
import { preloadSecretScanner } from "./secrets/secretlint.js";
import { type FollowedLink, followSigninLink, type PeekedLink, peekSigninLink } from "./session/links.js";
import { authenticateSession, closeSession, type OpenedSession, openSession } from "./session/sessions.js";
import { type LinkContext, type LinkOperationName, type LinkOperationOutput, SHARE_OPERATIONS } from "./share/operations.js";
import { ensureSigningKey } from "./signing/keys.js";
import { openReadStore, openStore } from "./store/open.js";
import type { Store, StoreOptions } from "./store/port.js";
import { readsFrom } from "./store/read-routing.js";

/** One running core: a store, its configuration, and the verbs bound to them. Adapters hold one of these. */
export interface Cairn {
  readonly config: CairnConfig;
  /** The one logger every surface of this process writes to (see log.ts). */
  readonly log: Logger;
  authenticate(bearer: string): Promise<Principal | null>;
  /**
   * The caller of an `Authorization` header value; throws 401 `unauthenticated` saying
   * whether the token was missing or wrong. With `cached`, a token this process has seen
   * is not read again here: its context is marked unchecked and core re-checks it before
   * the operation relies on it (ADR 0027). Only for callers that run operations.
   */
  authenticateHeader(authorization: string | null | undefined, options?: { cached?: boolean }): Promise<Principal>;
  context(principal: Principal, surface: Surface, request?: RequestOptions): ServiceContext;
  invoke<N extends OperationName>(name: N, ctx: ServiceContext, raw: unknown): Promise<OperationOutput<N>>;
  /**
   * For input a surface could not even read (malformed JSON, a body over the limit): lets
   * the operation record the refusal (receipt_create leaves a drop receipt) and returns
   * the error to send, with its drop attached.
   */
  refuseUnreadable(name: OperationName, ctx: ServiceContext, error: CairnError): Promise<CairnError>;
  /** Whether the database answers (`/healthz`). Never throws. */
  checkDatabase(): Promise<boolean>;
  /** Whether this process should get traffic (`/readyz`, SPEC §39): the database answers within a second and is migrated. Never throws. */
  checkReadiness(): Promise<Readiness>;
  /**
   * The embedded store's data directory as a gzipped tar, for `cairn backup` (ADR 0082):
   * only the process that owns the store can copy it consistently. Administrators only;
   * on PostgreSQL a 409 that says to use pg_dump.
   */
  dumpDataDir(authorization: string | null | undefined): Promise<Blob>;
  /** The Prometheus exposition (SPEC §39, ADR 0082). */
  metrics: {
    render(): Promise<{ contentType: string; body: string }>;
    /** Throws 401/403 unless the header carries an administrator's token or CAIRN_METRICS_TOKEN. */
    authorize(authorization: string | null | undefined): Promise<void>;
  };
  /** On an empty database, creates the administrator and returns its first token; null when users exist (see BootstrapOptions). */
  bootstrapAdmin(options?: BootstrapOptions): Promise<CreatedToken | null>;
  /** The context of a caller nobody signed in who holds a share link. */
  linkContext(surface: Surface): LinkContext;
  /** Runs an operation of a link holder (share_read): the link is the capability, no principal. */
  invokeLink<N extends LinkOperationName>(name: N, ctx: LinkContext, raw: unknown): Promise<LinkOperationOutput<N>>;
  /** Web sign-in sessions (ADR 0018): opened with a human token, ended by sign-out or by revoking the token. */
  sessions: {
    open(bearer: string): Promise<OpenedSession>;
    authenticate(secret: string): Promise<Principal | null>;
    close(secret: string): Promise<void>;
    /** Follows a one-time sign-in link (`cairn open`): a session and where to land, or null when it is used, expired or unknown. */
    follow(code: string): Promise<FollowedLink | null>;
    /** Who a sign-in link would sign in, without using it (the page a link preview may fetch); null when it is used, expired or unknown. */
    peek(code: string): Promise<PeekedLink | null>;
  };
  /** Cairn as the OAuth 2.1 authorization server of /mcp (SPEC §26, ADR 0053). */
  oauth: OAuthService;
  /** What notifications need without a token (SPEC §27): the feed read by its key, and the confirmation link of an address. */
  notifications: {
    /** The Atom feed of what waits on the key's owner, or null for a wrong or replaced key. */
    feed(key: string): Promise<string | null>;
    /** What a confirmation code names (the GET page, which never confirms), or null. */
    peekConfirmation(code: string): Promise<{ target: string; state: string } | null>;
    /** Confirms the address (the page's POST). */
    confirm(code: string): Promise<{ state: "confirmed" | "already" | "unknown"; target?: string }>;
  };
  /** Starts webhook delivery and the scheduled jobs on this core's store (`cairn serve`, `cairn worker`). */
  startWorker(options?: Omit<WorkerOptions, "store" | "config">): Worker;
  /** Runs an operation that needs no caller (the public signing keys); others are not found. */
  invokePublic<N extends OperationName>(name: N): Promise<OperationOutput<N>>;
  close(): Promise<void>;
}

export interface CairnOptions extends CairnHooks {
  now?: () => Date;
  /** A replica for the reads that may lag (read-routing.ts); closed with the Cairn. */
  readStore?: Store;
}

export function createCairn(store: Store, config: CairnConfig, options: CairnOptions | (() => Date) = {}): Cairn {
  const { now = () => new Date(), readStore, ...hooks } = typeof options === "function" ? { now: options } : options;
  // An operation the routing table sends to the replica runs with the replica as its store (ADR 0085).
  const routed = (name: OperationName, ctx: ServiceContext): ServiceContext =>
    readStore && readsFrom(name) === "replica" ? { ...ctx, store: readStore } : ctx;
  const caches = newReadCaches();
  // Principals handed out from the cache, each a copy of its own: context() marks their requests unchecked.
  const unchecked = new WeakSet<Principal>();
  return {
    config,
    log: hooks.logger ?? defaultLogger,
    authenticate: (bearer) => authenticate(store, bearer, now()),
    async authenticateHeader(authorization, { cached = false } = {}) {
      const bearer = bearerOf(authorization);
      if (!bearer) throw unauthenticated("A bearer token is required.");
      // An OAuth access token expires and is replaced on refresh: always read, never remembered (ADR 0053).
      if (!cached || bearer.startsWith(ACCESS_TOKEN_PREFIX)) {
        const principal = await authenticate(store, bearer, now());
        if (!principal) throw unauthenticated(INVALID_TOKEN);
        return principal;
      }
      const found = await cachedPrincipal(caches, bearer, (b) => authenticate(store, b, now()));
      if (!found) throw unauthenticated(INVALID_TOKEN);
      if (!found.unchecked) return found.principal;
      const copy = { ...found.principal };
      unchecked.add(copy);
      return copy;
    },
    context: (principal, surface, request = {}) => ({
      store,
      config,
      principal,
      ...(unchecked.has(principal) && { principalUnchecked: true as const }),
      caches,
      surface,
      now,
      ...hooks,
      requestId: request.requestId || randomUUID(),
      ...(request.idempotencyKey !== undefined && { idempotencyKey: request.idempotencyKey }),
      ...(request.traceparent !== undefined && { traceparent: request.traceparent }),
      ...(request.via !== undefined && { via: request.via }),
      ...(request.signal !== undefined && { signal: request.signal }),
    }),
    invoke: (name, ctx, raw) => invokeOperation(OPERATIONS[name], routed(name, ctx), raw) as never,
    refuseUnreadable: (name, ctx, error) => refuseUnreadableInput(OPERATIONS[name], ctx, error),
    checkDatabase: () =>
      store.query("select 1").then(
        () => true,
        () => false,
      ),
    checkReadiness: () => checkReadiness(store),
    async dumpDataDir(authorization) {
      const bearer = bearerOf(authorization);
      if (!bearer) throw unauthenticated("An administrator's token is required to back up the server.");
      const principal = await authenticate(store, bearer, now());
      if (!principal) throw unauthenticated(INVALID_TOKEN);
      if (!principal.user.is_admin) throw forbidden("Only an administrator may back up the server.");
      if (!store.dumpDataDir)
        throw conflict("This server stores its data in PostgreSQL: run `cairn backup --out FILE` with DATABASE_URL set (it uses pg_dump).");
      return store.dumpDataDir();
    },
    metrics: {
      render: () => renderMetrics(store),
      async authorize(authorization) {
        if (isMetricsToken(bearerOf(authorization) ?? undefined, config.metricsToken)) return;
        const bearer = bearerOf(authorization);
        if (!bearer) throw unauthenticated("A bearer token is required: an administrator's token or CAIRN_METRICS_TOKEN.");
        const principal = await authenticate(store, bearer, now());
        if (!principal) throw unauthenticated(INVALID_TOKEN);
        if (!mayReadMetrics(principal)) throw forbidden("Metrics are for administrators and CAIRN_METRICS_TOKEN: they count every owner's requests.");
      },
    },
    bootstrapAdmin: (options) => bootstrapAdmin(store, options),
    linkContext: (surface) => ({ store, config, surface, now }),
    invokeLink: (name, ctx, raw) => SHARE_OPERATIONS[name].invoke(ctx, raw) as never,
    sessions: {
      open: (bearer) => openSession(store, bearer, now()),
      authenticate: (secret) => authenticateSession(store, secret, now()),
      close: (secret) => closeSession(store, secret),
      follow: (code) => followSigninLink(store, code, now()),
      peek: (code) => peekSigninLink(store, code, now()),
    },
    oauth: createOAuthService(store, config, now, hooks.logger ?? defaultLogger),
    notifications: {
      // A feed reader polls: its answer may be seconds old.
      feed: (key) => inboxFeed(readStore ?? store, config.publicUrl, key, now()),
      peekConfirmation: (code) => peekConfirmation(store, code, now()),
      confirm: (code) => confirmChannel(store, code, now()),
    },
    startWorker: (options = {}) => startWorker({ logger: hooks.logger ?? defaultLogger, now, ...options, store, config }),
    invokePublic: async (name) => {
      const op = OPERATIONS[name] as { runPublic?: (store: Store) => Promise<unknown> };
      if (!op.runPublic) throw notFound();
      return op.runPublic(store) as never;
    },
    close: async () => {
      await readStore?.close();
      await store.close();
    },
  };
}

export async function openCairn(options: StoreOptions & CairnConfig & CairnOptions): Promise<Cairn> {
  const { databaseUrl, readDatabaseUrl, dataDir, publicUrl, timeouts, webhookDenyPrivate, oauth, mail, metricsToken, ...hooks } = options;
  const store = await openStore({ databaseUrl, dataDir, timeouts, logger: hooks.logger });
  const readStore = await openReadStore({ databaseUrl, readDatabaseUrl, timeouts, logger: hooks.logger }).catch(async (err) => {
    await store.close();
    throw err;
  });
  // Load the secret scanner now rather than on the first receipt (~80 ms of imports).
  await preloadSecretScanner();
  // The signing key exists from the first start on (race-safe across processes).
  await ensureSigningKey(store);
  return createCairn(
    store,
    {
      publicUrl: publicUrl.replace(/\/+$/, ""),
      ...(webhookDenyPrivate !== undefined && { webhookDenyPrivate }),
      ...(oauth !== undefined && { oauth }),
      ...(mail && { mail }),
      ...(metricsToken && { metricsToken }),
    },
    { ...hooks, ...(readStore && { readStore }) },
  );
}
