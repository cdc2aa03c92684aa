import type { z } from "zod";
import { provenanceOf } from "../artifact/internal.js";
import type { ServiceContext } from "../context.js";
import { resolveOwner } from "../identity/owner.js";
import { newId } from "../ids.js";
import { loadPolicy } from "../policy/store.js";
import { applySecretRules } from "../secrets/policy.js";
import { RUN_COLUMNS, type RunRow, toRun } from "./internal.js";
import type { Run, RunCreateInput } from "./schemas.js";

/** run_create: an open run for the caller or a team the caller belongs to. */
export async function createRun(ctx: ServiceContext, input: z.output<typeof RunCreateInput>): Promise<Run> {
  const owner = resolveOwner(ctx.principal, input.owner);
  const now = ctx.now();
  const [name = input.name] = (await applySecretRules([{ field: "name", value: input.name }], await loadPolicy(ctx.store, owner))).values;
  const [row] = await ctx.store.query<RunRow>(
    `insert into runs (id, owner, name, provenance, created_at) values ($1, $2, $3, $4::json, $5)
     returning ${RUN_COLUMNS}`,
    [newId("run", now), owner, name, JSON.stringify(provenanceOf(ctx, undefined)), now.toISOString()],
  );
  if (!row) throw new Error("insert returned no row");
  return toRun(ctx.store, row);
}
