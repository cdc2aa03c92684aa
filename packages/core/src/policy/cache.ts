import type { ServiceContext } from "../context.js";
import type { RevisedPolicy } from "./schemas.js";
import { loadRevisedPolicy } from "./store.js";

/**
 * The owner's policy as the receipt gates use it, with its revision: remembered by this
 * process, because the receipt's write compares the revision in the same statement and
 * answers `stale` when it changed (ADR 0027, 0050). Anything that shows or decides on a
 * policy otherwise reads it (loadPolicy).
 */
export async function gatingPolicy(ctx: ServiceContext, owner: string): Promise<RevisedPolicy> {
  const cached = ctx.caches?.policies.get(owner);
  if (cached) return cached;
  const read = await loadRevisedPolicy(ctx.store, owner);
  ctx.caches?.policies.set(owner, read);
  return read;
}

/** After a change, or when a write found the remembered policy stale. */
export function forgetPolicy(ctx: ServiceContext, owner: string): void {
  ctx.caches?.policies.delete(owner);
}
