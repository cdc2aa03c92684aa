import type { ServiceContext } from "../context.js";
import type { Policy } from "./schemas.js";
import { loadPolicy } from "./store.js";

/**
 * The owner's policy as the receipt gates use it: remembered by this process, because the
 * receipt's write re-checks it in the same statement and answers `stale` when it changed
 * (ADR 0027). Anything that shows or decides on a policy otherwise reads it (loadPolicy).
 */
export async function gatingPolicy(ctx: ServiceContext, owner: string): Promise<Policy> {
  const cached = ctx.caches?.policies.get(owner);
  if (cached) return cached;
  const policy = await loadPolicy(ctx.store, owner);
  ctx.caches?.policies.set(owner, policy);
  return policy;
}

/** After a change, or when a write found the remembered policy stale. */
export function forgetPolicy(ctx: ServiceContext, owner: string): void {
  ctx.caches?.policies.delete(owner);
}
