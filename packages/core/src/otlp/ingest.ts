import { provenanceOf } from "../artifact/internal.js";
import type { ServiceContext } from "../context.js";
import { CairnError } from "../errors.js";
import { ownerIssue } from "../identity/owner.js";
import { newId } from "../ids.js";
import { loadPolicy } from "../policy/store.js";
import { RUN_COLUMNS, type RunRow } from "../run/internal.js";
import { RUN_LIMITS } from "../run/schemas.js";
import type { NormalizedSpan } from "../run/span-checks.js";
import type { Sql } from "../store/port.js";
import { ROOT_FIELD } from "../validation.js";
import type { ExportRequest } from "./decode.js";
import { OTLP_LIMITS } from "./limits.js";
import { ARTIFACT_ATTRIBUTE, bump, countSpans, mapExportRequest, OWNER_ATTRIBUTE, runNameOf } from "./map.js";
import { redactTraceSpans } from "./redact.js";

/** What one export did: spans stored now, spans already there, spans refused and why, values bounded. */
export interface IngestResult {
  stored: number;
  unchanged: number;
  rejected: number;
  /** For partialSuccess.errorMessage: every refusal and every change, counted; empty when there is none. */
  message: string;
  /** The runs the spans went to. */
  run_ids: string[];
}


/**
 * POST /v1/traces (SPEC §21, ADR 0034): every span goes to the run of its trace id and
 * owner, made on first sight. A span id already in the run is left as stored (an exporter
 * retrying a batch stores nothing twice). Each trace is one transaction; the runs row is
 * locked so concurrent exports of a trace count its spans and name it in turn.
 */
export async function ingestTraces(ctx: ServiceContext, request: ExportRequest): Promise<IngestResult> {
  const total = countSpans(request);
  if (total > OTLP_LIMITS.spansPerRequest) {
    throw new CairnError("payload_too_large", `The request holds ${total} spans; at most ${OTLP_LIMITS.spansPerRequest} are taken per request.`, {
      issues: [{ field: ROOT_FIELD, reason: `holds more than ${OTLP_LIMITS.spansPerRequest} spans`, limit: OTLP_LIMITS.spansPerRequest }],
    });
  }
  const mapped = mapExportRequest(request);
  const rejected = mapped.rejected;
  const notes = mapped.trimmed;
  const fallbackOwner = `user:${ctx.principal.user.name}`;

  const byOwner = new Map<string, Map<string, NormalizedSpan[]>>();
  const seen = new Set<string>();
  let unchanged = 0;
  for (const { owner = fallbackOwner, trace_id, span } of mapped.spans) {
    if (ownerIssue(ctx.principal, owner) !== null) {
      bump(rejected, `${OWNER_ATTRIBUTE} names an owner you cannot act for`);
      continue;
    }
    const key = `${owner}\u0000${trace_id}\u0000${span.span_id}`;
    if (seen.has(key)) {
      unchanged++;
      continue;
    }
    seen.add(key);
    const traces = byOwner.get(owner) ?? new Map<string, NormalizedSpan[]>();
    byOwner.set(owner, traces);
    const list = traces.get(trace_id) ?? [];
    traces.set(trace_id, list);
    list.push(span);
  }

  let stored = 0;
  const runIds: string[] = [];
  for (const [owner, traces] of byOwner) {
    const policy = await loadPolicy(ctx.store, owner);
    for (const [traceId, spans] of traces) {
      const scanned = await redactTraceSpans(spans, policy);
      for (const [reason, n] of scanned.rejected) bump(rejected, reason, n);
      if (scanned.redactions > 0) bump(notes, "attribute values held a secret and were redacted", scanned.redactions);
      const kept = scanned.spans.filter((s): s is NormalizedSpan => s !== undefined);
      if (kept.length === 0) continue;
      const outcome = await ctx.store.transaction((tx) => storeTrace(tx, ctx, owner, traceId, kept));
      stored += outcome.stored;
      unchanged += outcome.unchanged;
      for (const [reason, n] of outcome.rejected) bump(rejected, reason, n);
      for (const [note, n] of outcome.notes) bump(notes, note, n);
      runIds.push(outcome.runId);
    }
  }
  const refusedCount = [...rejected.values()].reduce((a, b) => a + b, 0);
  const lines = [
    ...[...rejected].map(([reason, n]) => `${n} span${n === 1 ? "" : "s"} refused: ${reason}`),
    ...[...notes].map(([note, n]) => `${n}× ${note}`),
  ];
  return { stored, unchanged, rejected: refusedCount, message: lines.join("; "), run_ids: runIds };
}

interface TraceOutcome {
  runId: string;
  stored: number;
  unchanged: number;
  rejected: Map<string, number>;
  notes: Map<string, number>;
}

async function storeTrace(tx: Sql, ctx: ServiceContext, owner: string, traceId: string, spans: NormalizedSpan[]): Promise<TraceOutcome> {
  const rejected = new Map<string, number>();
  const notes = new Map<string, number>();
  const now = ctx.now();
  const naming = runNameOf(spans);
  await tx.query(
    `insert into runs (id, owner, name, provenance, created_at, trace_id) values ($1, $2, $3, $4::json, $5, $6)
     on conflict (owner, trace_id) where trace_id is not null do nothing`,
    [newId("run", now), owner, naming.name, JSON.stringify(provenanceOf(ctx, undefined)), now.toISOString(), traceId],
  );
  const [run] = await tx.query<RunRow>(`select ${RUN_COLUMNS} from runs where owner = $1 and trace_id = $2 for update`, [owner, traceId]);
  if (!run) throw new Error("the trace's run was not found after its insert");
  if (run.closed_at !== null) {
    bump(rejected, "their trace's run is closed", spans.length);
    return { runId: run.id, stored: 0, unchanged: 0, rejected, notes };
  }
  if (naming.fromRoot && run.name !== naming.name) await tx.query("update runs set name = $2 where id = $1", [run.id, naming.name]);

  // One round trip: which of these spans the run has, and how many spans it holds.
  const [stored] = await tx.query<{ n: number; existing: string[] }>(
    `select (select count(*)::int from spans where run_id = $1) as n,
            coalesce((select json_agg(span_id) from spans
                       where run_id = $1 and span_id in (select jsonb_array_elements_text($2::jsonb))), '[]'::json) as existing`,
    [run.id, JSON.stringify(spans.map((s) => s.span_id))],
  );
  const existing = new Set(stored?.existing ?? []);
  let fresh = spans.filter((s) => !existing.has(s.span_id));
  const unchanged = spans.length - fresh.length;
  const room = Math.max(RUN_LIMITS.spansPerRun - (stored?.n ?? 0), 0);
  if (fresh.length > room) {
    bump(rejected, `their run already holds ${RUN_LIMITS.spansPerRun} spans`, fresh.length - room);
    fresh = fresh.slice(0, room);
  }
  fresh = await withProducedArtifacts(tx, run.owner, fresh, notes);
  if (fresh.length > 0) {
    await tx.query(
      `insert into spans (run_id, span_id, parent_span_id, name, start_time, end_time, attributes, produced_artifact_id, status, resource, appended_at)
       select $1, s.span_id, s.parent_span_id, s.name, s.start_time, s.end_time, s.attributes, s.produced_artifact_id, s.status, s.resource, $2
         from json_to_recordset($3::json) as s(span_id text, parent_span_id text, name text, start_time timestamptz, end_time timestamptz,
                                               attributes json, produced_artifact_id text, status json, resource json)
       on conflict (run_id, span_id) do nothing`,
      [run.id, now.toISOString(), JSON.stringify(fresh)],
    );
    const edges = fresh.flatMap((s) => (s.produced_artifact_id ? [{ span_id: s.span_id, artifact_id: s.produced_artifact_id }] : []));
    if (edges.length > 0) {
      await tx.query(
        `insert into produced_edges (run_id, span_id, artifact_id, created_at)
         select $1, e.span_id, e.artifact_id, $2 from json_to_recordset($3::json) as e(span_id text, artifact_id text)
         on conflict do nothing`,
        [run.id, now.toISOString(), JSON.stringify(edges)],
      );
    }
  }
  return { runId: run.id, stored: fresh.length, unchanged, rejected, notes };
}

/**
 * `cairn.artifact.id` links a span to an artifact of the run's owner (§9). A span naming
 * another owner's artifact, or none, is stored unlinked (its attribute kept), and the
 * answer says so without telling whether the artifact exists.
 */
async function withProducedArtifacts(tx: Sql, owner: string, spans: NormalizedSpan[], notes: Map<string, number>): Promise<NormalizedSpan[]> {
  const wanted = [...new Set(spans.flatMap((s) => (s.produced_artifact_id ? [s.produced_artifact_id] : [])))];
  if (wanted.length === 0) return spans;
  const rows = await tx.query<{ id: string }>(
    "select id from artifacts where owner = $2 and id in (select jsonb_array_elements_text($1::jsonb)) for share",
    [JSON.stringify(wanted), owner],
  );
  const linkable = new Set(rows.map((r) => r.id));
  return spans.map((s) => {
    if (s.produced_artifact_id === null || linkable.has(s.produced_artifact_id)) return s;
    bump(notes, `${ARTIFACT_ATTRIBUTE} named no artifact of ${owner}; the span was stored unlinked`);
    return { ...s, produced_artifact_id: null };
  });
}
