import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { requireRun, toRun } from "./internal.js";
import type { Run, RunReadInput } from "./schemas.js";

/**
 * run_read: the run, its totals and a page of its spans (a run may hold 10,000), for the
 * owner user or members of the owner team; 404 for anyone else.
 */
export async function readRun(ctx: ServiceContext, input: z.output<typeof RunReadInput>): Promise<Run> {
  return toRun(ctx.store, await requireRun(ctx.store, ctx.principal, input.run_id), { cursor: input.spans_cursor, limit: input.spans_limit });
}
