import type { Provenance } from "../artifact/schemas.js";
import type { Principal } from "../context.js";
import { notFound, validationFailed } from "../errors.js";
import { authorizeRead } from "../identity/authorize.js";
import type { Sql } from "../store/port.js";
import { RUN_SPAN_PAGE, type RUN_STATES, type Run, type RunProduced, type Span, type SpanStatus } from "./schemas.js";

type RunState = (typeof RUN_STATES)[number];

export interface RunRow {
  id: string;
  owner: string;
  name: string;
  provenance: Provenance;
  created_at: Date | string;
  closed_at: Date | string | null;
  trace_id: string | null;
  ended_at: Date | string | null;
  span_count: number;
  error_count: number;
  input_tokens: number | string;
  output_tokens: number | string;
  models: string[];
  first_start_at: Date | string | null;
  last_end_at: Date | string | null;
  conversation_id: string | null;
  expires_at: Date | string;
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

/** The run row with its state and totals (migration 0017, kept as spans arrive) and its expiry (0020). */
export const RUN_COLUMNS =
  "id, owner, name, provenance, created_at, closed_at, trace_id, ended_at, span_count, error_count, input_tokens, output_tokens, models, first_start_at, last_end_at, conversation_id, expires_at";
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

/**
 * A run's state, once in TypeScript (a run read whole) and once in SQL (run_list's
 * filters): a run has ended once its root span ended or it was closed; it is in error once
 * a span ended in error. The rule-parity tests run both over the same rows.
 */
export const runStatusOf = (row: Pick<RunRow, "ended_at" | "closed_at">): RunState => ((row.ended_at ?? row.closed_at) === null ? "open" : "ended");
export const runInErrorOf = (row: Pick<RunRow, "error_count">): boolean => row.error_count > 0;

/** `runStatusOf(r) = status` in SQL over the runs row `r`. */
export function runStatusSql(r: string, status: RunState): string {
  return status === "open" ? `(${r}.ended_at is null and ${r}.closed_at is null)` : `(${r}.ended_at is not null or ${r}.closed_at is not null)`;
}

/** `runInErrorOf(r) = inError` in SQL over the runs row `r`. */
export function runInErrorSql(r: string, inError: boolean): string {
  return inError ? `(${r}.error_count > 0)` : `(${r}.error_count = 0)`;
}

/** State and totals as a run, a list item and the page show them (SPEC §28): read from the row, never summed per read. */
export function totalsOf(row: Omit<RunRow, "provenance" | "name" | "owner" | "id" | "trace_id">) {
  const ended = row.ended_at ?? row.closed_at;
  return {
    status: runStatusOf(row),
    error: runInErrorOf(row),
    span_count: row.span_count,
    error_count: row.error_count,
    usage: { input_tokens: Number(row.input_tokens), output_tokens: Number(row.output_tokens) },
    models: row.models ?? [],
    duration_ms:
      row.first_start_at === null || row.last_end_at === null
        ? null
        : Math.max(0, new Date(row.last_end_at).getTime() - new Date(row.first_start_at).getTime()),
    conversation_id: row.conversation_id,
    ended_at: ended === null ? null : iso(ended),
    expires_at: iso(row.expires_at),
  };
}

/** A spans page's cursor: the last span's id (the page continues after it in start order), opaque to clients. */
const encodeSpanCursor = (span: Span) => Buffer.from(`span:${span.span_id}`, "utf8").toString("base64url");

function decodeSpanCursor(cursor: string): string {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  if (!text.startsWith("span:") || text.length <= 5) {
    throw validationFailed([{ field: "spans_cursor", reason: "is not a cursor this server issued" }]);
  }
  return text.slice(5);
}

async function requireCursorSpan(sql: Sql, runId: string, spanId: string): Promise<void> {
  const [found] = await sql.query("select 1 from spans where run_id = $1 and span_id = $2", [runId, spanId]);
  if (!found) throw validationFailed([{ field: "spans_cursor", reason: "names no span of this run: pass the run's own spans_next_cursor" }]);
}

export interface SpanPage {
  cursor?: string | undefined;
  limit?: number | undefined;
}

/**
 * Receipts the run produced, each once: a span naming it (produced_edges) and a receipt
 * whose traceparent names the run's trace (trace_links) are one list, merged by artifact;
 * a receipt linked both ways sits under the span that named it.
 */
export async function producedOf(sql: Sql, row: Pick<RunRow, "id" | "owner" | "trace_id">): Promise<RunProduced[]> {
  const links = await sql.query<{ artifact_id: string; span_id: string; via: "span" | "traceparent" }>(
    `select artifact_id, span_id, via from (
       select artifact_id, span_id, 'span' as via, created_at from produced_edges where run_id = $1
       union all
       select artifact_id, parent_span_id, 'traceparent', created_at from trace_links
        where $3::text is not null and owner = $2 and trace_id = $3::text
     ) l order by created_at, artifact_id, via`,
    [row.id, row.owner, row.trace_id],
  );
  const byArtifact = new Map<string, RunProduced>();
  for (const l of links) {
    const seen = byArtifact.get(l.artifact_id);
    if (!seen) byArtifact.set(l.artifact_id, { artifact_id: l.artifact_id, span_id: l.span_id, linked_by: [l.via] });
    else if (!seen.linked_by.includes(l.via)) {
      // The span that named the receipt is where it shows: a traceparent only names the parent.
      if (l.via === "span") seen.span_id = l.span_id;
      seen.linked_by = ["span", "traceparent"];
    }
  }
  return [...byArtifact.values()];
}

export async function toRun(sql: Sql, row: RunRow, page: SpanPage = {}): Promise<Run> {
  const limit = page.limit ?? RUN_SPAN_PAGE.default;
  const after = page.cursor === undefined ? null : decodeSpanCursor(page.cursor);
  // The cursor names a span; the page goes on after it in (start_time, span_id) order,
  // compared with the stored time itself (microseconds kept, unlike an ISO string).
  const spanRows = await sql.query<SpanRow>(
    `select ${SPAN_COLUMNS} from spans where run_id = $1
        and ($2::text is null or (start_time, span_id) > (select c.start_time, c.span_id from spans c where c.run_id = $1 and c.span_id = $2::text))
      order by start_time, span_id limit $3`,
    [row.id, after, limit + 1],
  );
  // Only a cursor naming no span of this run leaves the page empty (what it names always has spans after it):
  // say so rather than answer an empty last page.
  if (after !== null && spanRows.length === 0) await requireCursorSpan(sql, row.id, after);
  const pageRows = spanRows.slice(0, limit);
  const resources = await resourcesOf(sql, row.owner, pageRows);
  const spans = pageRows.map((s) => toSpan(s, resources));
  const last = spans.at(-1);
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
    trace_id: row.trace_id,
    provenance: row.provenance,
    created_at: iso(row.created_at),
    closed_at: row.closed_at === null ? null : iso(row.closed_at),
    ...totalsOf(row),
    spans,
    spans_next_cursor: spanRows.length > limit && last ? encodeSpanCursor(last) : null,
    produced: await producedOf(sql, row),
    traced_artifacts: traced.map((t) => ({ artifact_id: t.artifact_id, parent_span_id: t.parent_span_id })),
  };
}
