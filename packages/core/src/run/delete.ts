import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import type { Sql } from "../store/port.js";
import { type RunRow, requireRun } from "./internal.js";
import type { RunDeleted, RunRef } from "./schemas.js";

/**
 * Removes a run with everything that names it: its spans and produced_edges (cascade) and
 * the trace_links of its trace, so its receipts stay but stop naming it, and spans that
 * arrive for the trace later start a new run instead of reviving old links. Shared by
 * run_delete and the expiry sweeper.
 */
export async function removeRun(tx: Sql, run: Pick<RunRow, "id" | "owner" | "trace_id">): Promise<number> {
  const [kept] = await tx.query<{ n: number }>(
    `select count(distinct artifact_id)::int as n from (
       select artifact_id from produced_edges where run_id = $1
       union all
       select artifact_id from trace_links where $3::text is not null and owner = $2 and trace_id = $3::text
     ) l`,
    [run.id, run.owner, run.trace_id],
  );
  if (run.trace_id !== null) await tx.query("delete from trace_links where owner = $1 and trace_id = $2", [run.owner, run.trace_id]);
  await tx.query("delete from runs where id = $1", [run.id]);
  return kept?.n ?? 0;
}

/** run_delete: the owner (user, or a member of the owning team) deletes a run; anyone else gets the same 404 as a missing id. */
export async function deleteRun(ctx: ServiceContext, input: z.output<typeof RunRef>): Promise<z.output<typeof RunDeleted>> {
  return ctx.store.transaction(async (tx) => {
    const run = await requireRun(tx, ctx.principal, input.run_id, true);
    return { id: run.id, deleted: true as const, receipts_kept: await removeRun(tx, run) };
  });
}
