import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { type Issue, validationFailed } from "../errors.js";
import { loadPolicy } from "../policy/store.js";
import type { Sql } from "../store/port.js";
import { type RunRow, requireRun, SPAN_COLUMNS, type SpanRow, toSpan } from "./internal.js";
import { redactSpans } from "./redact.js";
import { RUN_LIMITS, type RunAppendSpansInput, type RunAppendSpansOutput } from "./schemas.js";
import { type NormalizedSpan, normalizeSpan, sameSpan, spanBatchIssues } from "./span-checks.js";
import { storeSpanRows } from "./store-spans.js";
import { conversationOf, spanTotalsOf } from "./totals.js";

type Input = z.output<typeof RunAppendSpansInput>;
type Output = z.output<typeof RunAppendSpansOutput>;

/**
 * run_append_spans: all spans of a batch are stored or none. A span naming
 * `produced_artifact_id` also writes a produced_edges row; the artifact must exist and
 * have the run's owner. Unknown and foreign artifacts get the same reason, so the
 * answer never tells a caller whether someone else's artifact exists.
 */
export async function appendSpans(ctx: ServiceContext, input: Input): Promise<Output> {
  const batchIssues = spanBatchIssues(input.spans);
  if (batchIssues.length > 0) throw validationFailed(batchIssues);
  // Scanned before the transaction, under the run owner's policy (the owner never changes).
  const owner = (await requireRun(ctx.store, ctx.principal, input.run_id)).owner;
  const spans = await redactSpans(input.spans.map(normalizeSpan), await loadPolicy(ctx.store, owner));
  const now = ctx.now().toISOString();

  return ctx.store.transaction(async (tx) => {
    const run = await requireRun(tx, ctx.principal, input.run_id, true);
    if (run.closed_at !== null) {
      throw validationFailed([{ field: "run_id", reason: "names a closed run; spans can only be appended to an open run" }]);
    }
    const existing = await storedSpans(tx, run.id, spans);
    const fresh = spans.filter((s) => !existing.has(s.span_id));
    const [count] = await tx.query<{ n: number }>("select count(*)::int as n from spans where run_id = $1", [run.id]);
    const before = count?.n ?? 0;

    const issues: Issue[] = [];
    spans.forEach((span, i) => {
      const stored = existing.get(span.span_id);
      if (stored && !sameSpan(stored, span)) {
        issues.push({ field: `spans.${i}.span_id`, reason: "is already in this run with other fields; spans cannot be changed" });
      }
    });
    if (before + fresh.length > RUN_LIMITS.spansPerRun) {
      issues.push({ field: "spans", reason: `would bring the run over ${RUN_LIMITS.spansPerRun} spans`, limit: RUN_LIMITS.spansPerRun });
    }
    issues.push(...(await producedIssues(tx, run, spans, fresh)));
    if (issues.length > 0) throw validationFailed(issues);

    await insertSpans(tx, run.id, fresh, now);
    return { run_id: run.id, appended: fresh.length, unchanged: spans.length - fresh.length, span_count: before + fresh.length };
  });
}

async function storedSpans(tx: Sql, runId: string, spans: NormalizedSpan[]): Promise<Map<string, NormalizedSpan>> {
  const rows = await tx.query<SpanRow>(
    `select ${SPAN_COLUMNS} from spans
      where run_id = $1 and span_id in (select jsonb_array_elements_text($2::jsonb))`,
    [runId, JSON.stringify(spans.map((s) => s.span_id))],
  );
  return new Map(rows.map((r) => [r.span_id, toSpan(r)]));
}

/**
 * Each new span's produced artifact must exist and share the run's owner. The rows are
 * locked (`for share`) so the artifact cannot vanish before its edge is written.
 */
async function producedIssues(tx: Sql, run: RunRow, spans: NormalizedSpan[], fresh: NormalizedSpan[]): Promise<Issue[]> {
  const wanted = [...new Set(fresh.flatMap((s) => (s.produced_artifact_id ? [s.produced_artifact_id] : [])))];
  if (wanted.length === 0) return [];
  const rows = await tx.query<{ id: string; owner: string }>(
    "select id, owner from artifacts where id in (select jsonb_array_elements_text($1::jsonb)) for share",
    [JSON.stringify(wanted)],
  );
  const sameOwner = new Set(rows.filter((r) => r.owner === run.owner).map((r) => r.id));
  const isFresh = new Set(fresh);
  const issues: Issue[] = [];
  spans.forEach((span, i) => {
    if (!isFresh.has(span) || span.produced_artifact_id === null || sameOwner.has(span.produced_artifact_id)) return;
    issues.push({
      field: `spans.${i}.produced_artifact_id`,
      reason: `names no artifact owned by ${run.owner}; create the artifact first, with the run's owner`,
    });
  });
  return issues;
}

/** The fresh spans, their produced edges and the run's totals (SPEC §28), in one call. */
async function insertSpans(tx: Sql, runId: string, spans: NormalizedSpan[], now: string): Promise<void> {
  if (spans.length === 0) return;
  const rows = spans.map(({ resource: _resource, ...s }) => ({
    ...s,
    run_id: runId,
    resource_id: null,
    conversation_id: conversationOf(s.attributes),
    ...spanTotalsOf(s.attributes, s.status),
  }));
  await storeSpanRows(tx, now, rows);
}
