import type { CreatedArtifact } from "../artifact/schemas.js";
import type { ServiceContext } from "../context.js";
import { parseTraceparent } from "./traceparent.js";

/**
 * A receipt sent with a W3C `traceparent` names its trace (SPEC §21): the link is kept
 * by trace id and owner, and joins the owner's run of that trace whenever the run exists,
 * so the receipt may come before the spans that OTLP exports later. The created answer
 * shows the run at once when it is already there.
 */
export async function linkTrace(ctx: ServiceContext, created: CreatedArtifact): Promise<void> {
  const parent = parseTraceparent(ctx.traceparent);
  if (parent === null) return;
  await ctx.store.query(
    `insert into trace_links (artifact_id, owner, trace_id, parent_span_id, created_at) values ($1, $2, $3, $4, $5)
     on conflict (artifact_id) do nothing`,
    [created.id, created.owner, parent.trace_id, parent.parent_span_id, ctx.now().toISOString()],
  );
  const [run] = await ctx.store.query<{ id: string; name: string }>("select id, name from runs where owner = $1 and trace_id = $2", [
    created.owner,
    parent.trace_id,
  ]);
  if (run && !created.produced_by.some((r) => r.id === run.id)) created.produced_by = [...created.produced_by, { id: run.id, name: run.name }];
}
