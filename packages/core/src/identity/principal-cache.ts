import type { Principal, ReadCaches, ServiceContext } from "../context.js";
import { unauthenticated } from "../errors.js";
import { hashToken } from "../ids.js";
import { LruMap } from "../lru.js";
import { livePrincipal } from "./tokens.js";

/*
 * What one process remembers between requests (ADR 0027, `ReadCaches`): principals by
 * token hash and owners' policies. Neither decides anything alone. A principal from the
 * cache is marked unchecked on the request's context: every operation re-reads it first
 * (`checkedContext`), except receipt_create and OTLP ingest, whose one write statement
 * re-checks the token, the owner teams and the policies it was gated with, and answers
 * `stale` if any changed. So revocation and policy changes take effect on the next request, on every
 * process, while an accepted receipt costs one query.
 */

const CAPACITY = 1_000;

export const newReadCaches = (): ReadCaches => ({ principals: new LruMap(CAPACITY), policies: new LruMap(CAPACITY) });

export const INVALID_TOKEN = "The bearer token is not valid.";

/** A bearer's principal from the cache (unchecked) or from the database (then remembered). */
export async function cachedPrincipal(
  caches: ReadCaches,
  bearer: string,
  authenticate: (bearer: string) => Promise<Principal | null>,
): Promise<{ principal: Principal; unchecked: boolean } | null> {
  const hash = hashToken(bearer);
  const cached = caches.principals.get(hash);
  if (cached) return { principal: cached, unchecked: true };
  const principal = await authenticate(bearer);
  if (principal) caches.principals.set(hash, principal);
  return principal ? { principal, unchecked: false } : null;
}

/**
 * The context with its principal read now: unchanged when it already was, else re-read by
 * token id (401 when the token is gone). A cached copy that no longer matches is
 * forgotten, so the next request reads it again too.
 */
export async function checkedContext(ctx: ServiceContext, { force = false } = {}): Promise<ServiceContext> {
  if (!ctx.principalUnchecked && !force) return ctx;
  const tokenId = ctx.principal.token.id;
  const principal = await livePrincipal(ctx.store, { id: tokenId }, ctx.now());
  const same = principal !== null && JSON.stringify(principal) === JSON.stringify(ctx.principal);
  if (!same) ctx.caches?.principals.deleteWhere((p) => p.token.id === tokenId);
  if (!principal) throw unauthenticated(INVALID_TOKEN);
  const { principalUnchecked: _checked, ...rest } = ctx;
  return { ...rest, principal };
}
