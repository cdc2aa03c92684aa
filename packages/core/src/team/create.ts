import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { validationFailed } from "../errors.js";
import { newId } from "../ids.js";
import { loadTeam, type TeamRow } from "./internal.js";
import type { Team, TeamCreateInput } from "./schemas.js";

/** Any user may create a team; the creator becomes its first member, so no team starts ownerless. */
export async function createTeam(ctx: ServiceContext, input: z.output<typeof TeamCreateInput>): Promise<Team> {
  return ctx.store.transaction(async (tx) => {
    const [row] = await tx.query<TeamRow>(
      `insert into teams (id, name, created_at) values ($1, $2, $3)
       on conflict (name) do nothing
       returning id, name, created_at`,
      [newId("team", ctx.now()), input.name, ctx.now().toISOString()],
    );
    if (!row) throw validationFailed([{ field: "name", reason: "is already taken" }]);
    await tx.query("insert into team_members (team_id, user_id, added_at) values ($1, $2, $3)", [row.id, ctx.principal.user.id, ctx.now().toISOString()]);
    return loadTeam(tx, row, ctx.now());
  });
}
