import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { loadTeam, requireTeam } from "./internal.js";
import type { Team, TeamReadInput } from "./schemas.js";

/** A team and its members, for its members (and administrators). Others get 404 whether or not it exists. */
export async function readTeam(ctx: ServiceContext, input: z.output<typeof TeamReadInput>): Promise<Team> {
  return loadTeam(ctx.store, await requireTeam(ctx.store, ctx.principal, input.name), ctx.now());
}
