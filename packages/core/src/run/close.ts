import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { RUN_COLUMNS, type RunRow, requireRun, toRun } from "./internal.js";
import type { Run, RunRef } from "./schemas.js";

/** run_close: no more spans. Closing a closed run changes nothing, so a retried close is safe. */
export async function closeRun(ctx: ServiceContext, input: z.output<typeof RunRef>): Promise<Run> {
  return ctx.store.transaction(async (tx) => {
    const run = await requireRun(tx, ctx.principal, input.run_id, true);
    if (run.closed_at !== null) return toRun(tx, run);
    const [closed] = await tx.query<RunRow>(`update runs set closed_at = $2, ended_at = coalesce(ended_at, $2) where id = $1 returning ${RUN_COLUMNS}`, [
      run.id,
      ctx.now().toISOString(),
    ]);
    return toRun(tx, closed ?? run);
  });
}
