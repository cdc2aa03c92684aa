import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { resolveOwner } from "../identity/owner.js";
import { forgetPolicy } from "./cache.js";
import type { Policy, PolicySetInput } from "./schemas.js";
import { savePolicy } from "./store.js";

/** policy_set: any subset of the fields; returns the whole policy. Team policies by team members. */
export async function setPolicy(ctx: ServiceContext, input: z.output<typeof PolicySetInput>): Promise<Policy> {
  const { owner: requested, ...patch } = input;
  const owner = resolveOwner(ctx.principal, requested, "set a policy");
  const saved = await savePolicy(ctx.store, owner, patch, { user: ctx.principal.user.name, now: ctx.now() });
  // This process's next receipt for the owner reads it again; other processes find out in their write.
  forgetPolicy(ctx, owner);
  return saved;
}
