import type { Sql } from "../store/port.js";
import type { SpanTotals } from "./totals.js";

/** A span row as `cairn_store_spans` reads it (its `span_rows` recordset), with what it adds to its run's totals. */
export interface SpanRowInput extends SpanTotals {
  run_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  start_time: string;
  end_time: string | null;
  attributes: Readonly<Record<string, unknown>>;
  produced_artifact_id: string | null;
  status: unknown;
  resource_id: string | null;
  conversation_id: string | null;
}

/**
 * Stores `run_append_spans`' spans and their produced edges, and adds to their runs'
 * totals (SPEC §28), in one call of `cairn_store_spans` (store/sql, ADR 0061), whose body
 * `cairn_insert_spans` OTLP ingest reaches through `cairn_ingest_spans` (ADR 0063). The
 * caller holds the runs' row locks. Returns how many spans were inserted: a span already
 * stored is skipped and adds nothing to the totals.
 */
export async function storeSpanRows(tx: Sql, at: string, spans: readonly SpanRowInput[]): Promise<number> {
  if (spans.length === 0) return 0;
  // An appended span names no resource, and a run is named by whoever appends to it.
  const [row] = await tx.query<{ n: number }>("select cairn_store_spans($1, $2::json, '[]', '[]') as n", [at, JSON.stringify(spans)]);
  return row?.n ?? 0;
}
