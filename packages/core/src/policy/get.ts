import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { resolveOwner } from "../identity/owner.js";
import type { Policy, PolicyGetInput } from "./schemas.js";
import { loadPolicy } from "./store.js";

/** policy_get: the owner user's policy, or a team's for its members. Never set = the defaults. */
export async function getPolicy(ctx: ServiceContext, input: z.output<typeof PolicyGetInput>): Promise<Policy> {
  return loadPolicy(ctx.store, resolveOwner(ctx.principal, input.owner, "read a policy"));
}
