import type { Sql } from "../store/port.js";

/** A span row as `cairn_store_spans` reads it (its `span_rows` recordset). */
export interface SpanRowInput {
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

/** A resource to store once per owner: its attributes already as JSON text (hashed into its id by the caller). */
export interface ResourceRowInput {
  owner: string;
  id: string;
  attributesJson: string;
}

/** A run to rename: OTLP's root span arrived after the run was named by another span. */
export interface RunRename {
  id: string;
  name: string;
}

/**
 * Stores spans, their resources and produced edges, and adds to their runs' totals (SPEC
 * §28), in one call of `cairn_store_spans` (store/sql/cairn_store_spans.sql, ADR 0061) — the body is `cairn_insert_spans`, which OTLP ingest reaches through `cairn_ingest_spans`,
 * whose plans PostgreSQL keeps for the session. Both writers of spans use it: OTLP ingest
 * and `run_append_spans`. The caller holds the runs' row locks. Returns how many spans were
 * inserted: a span already stored is skipped and adds nothing to the totals.
 */
export async function storeSpanRows(
  tx: Sql,
  at: string,
  spans: readonly SpanRowInput[],
  resources: readonly ResourceRowInput[],
  renames: readonly RunRename[] = [],
): Promise<number> {
  if (spans.length === 0 && renames.length === 0) return 0;
  // The attributes are JSON already: spliced in, not parsed and serialized again.
  const resourceJson = `[${resources.map((r) => `{"owner":${JSON.stringify(r.owner)},"id":${JSON.stringify(r.id)},"attributes":${r.attributesJson}}`).join(",")}]`;
  const [row] = await tx.query<{ n: number }>("select cairn_store_spans($1, $2::json, $3::json, $4::json) as n", [
    at,
    JSON.stringify(spans),
    resourceJson,
    JSON.stringify(renames),
  ]);
  return row?.n ?? 0;
}
