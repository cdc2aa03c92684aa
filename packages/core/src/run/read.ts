import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { requireRun, toRun } from "./internal.js";
import type { Run, RunRef } from "./schemas.js";

/** run_read: the run and its spans, for the owner user or members of the owner team; 404 for anyone else. */
export async function readRun(ctx: ServiceContext, input: z.output<typeof RunRef>): Promise<Run> {
  return toRun(ctx.store, await requireRun(ctx.store, ctx.principal, input.run_id));
}
