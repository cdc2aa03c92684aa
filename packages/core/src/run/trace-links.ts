import type { Artifact } from "../artifact/schemas.js";
import type { ServiceContext } from "../context.js";
import { parseTraceparent, type Traceparent } from "./traceparent.js";

/** What a receipt's write needs to name its trace: the link to store, and the run the answer shows. */
export interface TraceLink {
  trace: Traceparent | null;
  produced_by: Artifact["produced_by"];
}

/**
 * A receipt sent with a W3C `traceparent` names its trace (SPEC §21): the receipt's write
 * stores the link (by trace id and owner) in its own transaction, and the link joins the
 * owner's run of that trace whenever the run exists, so the receipt may come before the
 * spans. The answer shows the run when it is already there: read here, before the write,
 * because the answer is built — and saved for an idempotency key — before the write runs.
 * No traceparent (or an invalid one, which a receiver ignores): nothing to read.
 */
export async function traceLinkOf(ctx: ServiceContext, owner: string): Promise<TraceLink> {
  const trace = parseTraceparent(ctx.traceparent);
  if (trace === null) return { trace: null, produced_by: [] };
  const runs = await ctx.store.query<{ id: string; name: string }>("select id, name from runs where owner = $1 and trace_id = $2", [owner, trace.trace_id]);
  return { trace, produced_by: runs.map((r) => ({ id: r.id, name: r.name })) };
}
