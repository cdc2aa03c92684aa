import type { Provenance } from "../artifact/schemas.js";
import type { Principal } from "../context.js";
import { notFound } from "../errors.js";
import { authorizeRead } from "../identity/authorize.js";
import type { Sql } from "../store/port.js";
import type { Run, Span, SpanStatus } from "./schemas.js";

export interface RunRow {
  id: string;
  owner: string;
  name: string;
  provenance: Provenance;
  created_at: Date | string;
  closed_at: Date | string | null;
  trace_id: string | null;
}

export interface SpanRow {
  span_id: string;
  parent_span_id: string | null;
  name: string;
  start_time: Date | string;
  end_time: Date | string | null;
  attributes: Record<string, unknown>;
  produced_artifact_id: string | null;
  status: SpanStatus | null;
  resource: Record<string, unknown> | null;
  /** The span's resource in span_resources (owner, id), or null (ADR 0043). */
  resource_id: string | null;
}

export const RUN_COLUMNS = "id, owner, name, provenance, created_at, closed_at, trace_id";
export const SPAN_COLUMNS = "span_id, parent_span_id, name, start_time, end_time, attributes, produced_artifact_id, status, resource, resource_id";

const iso = (v: Date | string) => new Date(v).toISOString();

/**
 * A run the caller may read, or the same 404 as a missing id. Runs have no share links,
 * so reading one means acting for its owner; appending and closing need nothing more.
 * `lock` takes the row for the rest of the transaction, so a close cannot slip between
 * an append's open-check and its inserts.
 */
export async function requireRun(sql: Sql, principal: Principal, id: string, lock = false): Promise<RunRow> {
  const [row] = await sql.query<RunRow>(`select ${RUN_COLUMNS} from runs where id = $1${lock ? " for update" : ""}`, [id]);
  if (!row || !authorizeRead({ kind: "principal", principal }, row)) throw notFound("run");
  return row;
}

/** A resource's attributes by id, read once for the spans that name it. */
export type ResourceMap = ReadonlyMap<string, Record<string, unknown>>;

/**
 * The resources (ADR 0043: stored once per owner, not per span) that these spans name,
 * in one query, so each span reads back with its `resource` as §13 pins it.
 */
export async function resourcesOf(sql: Sql, owner: string, spans: readonly SpanRow[]): Promise<ResourceMap> {
  const ids = [...new Set(spans.flatMap((s) => (s.resource_id === null ? [] : [s.resource_id])))];
  if (ids.length === 0) return new Map();
  const rows = await sql.query<{ id: string; attributes: Record<string, unknown> }>(
    "select id, attributes from span_resources where owner = $1 and id = any($2::text[])",
    [owner, ids],
  );
  return new Map(rows.map((r) => [r.id, r.attributes]));
}

export const toSpan = (r: SpanRow, resources: ResourceMap = new Map()): Span => ({
  span_id: r.span_id,
  parent_span_id: r.parent_span_id,
  name: r.name,
  start_time: iso(r.start_time),
  end_time: r.end_time === null ? null : iso(r.end_time),
  attributes: r.attributes,
  produced_artifact_id: r.produced_artifact_id,
  status: r.status,
  resource: (r.resource_id === null ? null : resources.get(r.resource_id)) ?? r.resource ?? {},
});

export async function toRun(sql: Sql, row: RunRow): Promise<Run> {
  const spans = await sql.query<SpanRow>(
    `select ${SPAN_COLUMNS} from spans where run_id = $1 order by start_time, span_id`,
    [row.id],
  );
  const resources = await resourcesOf(sql, row.owner, spans);
  const traced =
    row.trace_id === null
      ? []
      : await sql.query<{ artifact_id: string; parent_span_id: string }>(
          "select artifact_id, parent_span_id from trace_links where owner = $1 and trace_id = $2 order by created_at, artifact_id",
          [row.owner, row.trace_id],
        );
  return {
    id: row.id,
    name: row.name,
    owner: row.owner,
    status: row.closed_at === null ? "open" : "closed",
    trace_id: row.trace_id,
    provenance: row.provenance,
    created_at: iso(row.created_at),
    closed_at: row.closed_at === null ? null : iso(row.closed_at),
    spans: spans.map((s) => toSpan(s, resources)),
    traced_artifacts: traced.map((t) => ({ artifact_id: t.artifact_id, parent_span_id: t.parent_span_id })),
  };
}
