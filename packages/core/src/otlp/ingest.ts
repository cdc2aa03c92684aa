import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { provenanceOf } from "../artifact/internal.js";
import type { ServiceContext } from "../context.js";
import { CairnError } from "../errors.js";
import { ownerIssue } from "../identity/owner.js";
import { newId } from "../ids.js";
import { loadPolicy } from "../policy/store.js";
import { RUN_LIMITS } from "../run/schemas.js";
import type { NormalizedSpan } from "../run/span-checks.js";
import { type RunRename, storeSpanRows } from "../run/store-spans.js";
import { conversationOf } from "../run/totals.js";
import type { SecretRules } from "../secrets/policy.js";
import type { Sql } from "../store/port.js";
import { ROOT_FIELD } from "../validation.js";
import type { ExportRequest } from "./decode.js";
import { OTLP_LIMITS } from "./limits.js";
import { ARTIFACT_ATTRIBUTE, bump, countSpans, mapExportRequest, OWNER_ATTRIBUTE, runNameOf } from "./map.js";
import { redactRequest, type SpanToScan } from "./redact.js";

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

/** A span ready to store: its owner, trace, and the id of its resource (null: no attributes). */
interface Kept {
  owner: string;
  traceId: string;
  span: NormalizedSpan;
  resource: Record<string, unknown>;
  /** The resource's id and its attributes' JSON (made once per resource, shared by its spans), or null: no attributes. */
  stored: { id: string; json: string } | null;
}

/**
 * Spans written per transaction on the embedded store, whose one connection every other
 * request waits for: each chunk's statements take a moment, and other requests run
 * between chunks. PostgreSQL takes a request's spans in one transaction.
 */
const EMBEDDED_CHUNK = 250;

/**
 * POST /v1/traces (SPEC §21, §31, ADR 0034/0043): every span goes to the run of its trace
 * id and owner, made on first sight (a trace whose run was deleted gets a new one). A span
 * id already in the run is left as stored (an exporter retrying a batch stores nothing
 * twice). Each resource is scanned and stored once, however many spans name it. The
 * request's spans are written in a fixed number of statements whatever their count
 * (runs, locks, existing spans, linked artifacts, then spans + resources + edges + the
 * runs' totals in one), runs locked in (owner, trace id) order so concurrent exports of a
 * trace meet in one run and count its spans in turn.
 */
export async function ingestTraces(ctx: ServiceContext, request: ExportRequest): Promise<IngestResult> {
  const total = countSpans(request);
  if (total > OTLP_LIMITS.spansPerRequest) {
    throw new CairnError("payload_too_large", `The request holds ${total} spans; at most ${OTLP_LIMITS.spansPerRequest} are taken per request.`, {
      issues: [{ field: ROOT_FIELD, reason: `holds more than ${OTLP_LIMITS.spansPerRequest} spans`, limit: OTLP_LIMITS.spansPerRequest }],
    });
  }
  const mapped = await mapExportRequest(request);
  const rejected = mapped.rejected;
  const notes = mapped.trimmed;
  const fallbackOwner = `user:${ctx.principal.user.name}`;

  const policies = new Map<string, SecretRules>();
  const seen = new Set<string>();
  const items: Array<SpanToScan & { owner: string; traceId: string }> = [];
  let unchanged = 0;
  for (const { trace_id, resource, span } of mapped.spans) {
    const res = mapped.resources[resource];
    if (!res) continue;
    if (res.ownerInvalid !== null) {
      bump(rejected, res.ownerInvalid);
      continue;
    }
    const owner = res.owner ?? fallbackOwner;
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
    let rules = policies.get(owner);
    if (!rules) {
      rules = await loadPolicy(ctx.store, owner);
      policies.set(owner, rules);
    }
    items.push({ span, resource, rules, owner, traceId: trace_id });
  }

  const scanned = await redactRequest(
    mapped.resources.map((r) => r.attributes),
    items,
  );
  for (const [reason, n] of scanned.rejected) bump(rejected, reason, n);
  if (scanned.redactions > 0) bump(notes, "attribute values held a secret and were redacted", scanned.redactions);
  const storedResources = scanned.resources.map((attributes) => {
    if (attributes === undefined || Object.keys(attributes).length === 0) return null;
    const json = JSON.stringify(attributes);
    return { id: createHash("sha256").update(json).digest("hex"), json };
  });
  const kept: Kept[] = [];
  scanned.spans.forEach((span, i) => {
    const item = items[i];
    if (span === undefined || item === undefined) return;
    kept.push({
      owner: item.owner,
      traceId: item.traceId,
      span,
      resource: scanned.resources[item.resource] ?? {},
      stored: storedResources[item.resource] ?? null,
    });
  });

  let stored = 0;
  const runIds = new Set<string>();
  const chunk = ctx.store.driver === "pglite" ? EMBEDDED_CHUNK : OTLP_LIMITS.spansPerRequest;
  for (let at = 0; at < kept.length; at += chunk) {
    if (at > 0) await nextTurn();
    const outcome = await ctx.store.transaction((tx) => storeSpans(tx, ctx, kept.slice(at, at + chunk)));
    stored += outcome.stored;
    unchanged += outcome.unchanged;
    for (const [reason, n] of outcome.rejected) bump(rejected, reason, n);
    for (const [note, n] of outcome.notes) bump(notes, note, n);
    for (const id of outcome.runIds) runIds.add(id);
  }
  const refusedCount = [...rejected.values()].reduce((a, b) => a + b, 0);
  const lines = [...[...rejected].map(([reason, n]) => `${n} span${n === 1 ? "" : "s"} refused: ${reason}`), ...[...notes].map(([note, n]) => `${n}× ${note}`)];
  return { stored, unchanged, rejected: refusedCount, message: lines.join("; "), run_ids: [...runIds] };
}

interface StoreOutcome {
  runIds: string[];
  stored: number;
  unchanged: number;
  rejected: Map<string, number>;
  notes: Map<string, number>;
}

interface LockedRun {
  id: string;
  owner: string;
  trace_id: string;
  name: string;
  closed_at: string | Date | null;
  span_count: number;
}

const traceKey = (owner: string, traceId: string) => `${owner}\u0000${traceId}`;

/** Stores one batch of spans (any number of traces and owners) in a fixed number of statements. */
async function storeSpans(tx: Sql, ctx: ServiceContext, spans: readonly Kept[]): Promise<StoreOutcome> {
  const rejected = new Map<string, number>();
  const notes = new Map<string, number>();
  const now = ctx.now().toISOString();

  const traces = new Map<string, Kept[]>();
  for (const k of spans) {
    const key = traceKey(k.owner, k.traceId);
    const list = traces.get(key);
    if (list) list.push(k);
    else traces.set(key, [k]);
  }
  // One order for inserts and locks, so two exports of the same traces never deadlock.
  const keys = [...traces.keys()].sort();
  const names = new Map<string, { name: string; fromRoot: boolean }>();
  for (const key of keys) {
    const list = traces.get(key) as Kept[];
    const resourceOf = new Map(list.map((k) => [k.span, k.resource]));
    names.set(
      key,
      runNameOf(
        list.map((k) => k.span),
        (s) => resourceOf.get(s) ?? {},
      ),
    );
  }
  const owners = keys.map((k) => (traces.get(k) as Kept[])[0]?.owner as string);
  const traceIds = keys.map((k) => (traces.get(k) as Kept[])[0]?.traceId as string);
  const base = ctx.now();
  // Made on first sight, or locked as it is (the no-op update takes the row lock), in one statement.
  const runs = await tx.query<LockedRun>(
    `insert into runs (id, owner, name, provenance, created_at, trace_id)
     select t.id, t.owner, t.name, $4::json, $5, t.trace_id
       from unnest($1::text[], $2::text[], $3::text[], $6::text[]) with ordinality as t(id, owner, name, trace_id, n)
      order by t.n
     on conflict (owner, trace_id) where trace_id is not null do update set trace_id = excluded.trace_id
     returning id, owner, trace_id, name, closed_at, span_count`,
    [keys.map(() => newId("run", base)), owners, keys.map((k) => names.get(k)?.name ?? "(trace)"), JSON.stringify(provenanceOf(ctx, undefined)), now, traceIds],
  );
  const runOf = new Map(runs.map((r) => [traceKey(r.owner, r.trace_id), r]));
  // Which spans are stored already matters only to a run these spans could fill: the
  // insert skips stored ones by itself, and counts only what it inserted.
  const nearFull = spans.filter((k) => {
    const run = runOf.get(traceKey(k.owner, k.traceId));
    return run !== undefined && run.span_count + (traces.get(traceKey(k.owner, k.traceId))?.length ?? 0) > RUN_LIMITS.spansPerRun;
  });
  const existingRows =
    nearFull.length === 0
      ? []
      : await tx.query<{ run_id: string; span_id: string }>(
          `select s.run_id, s.span_id from spans s
             join unnest($1::text[], $2::text[]) as t(run_id, span_id) on s.run_id = t.run_id and s.span_id = t.span_id`,
          [nearFull.map((k) => runOf.get(traceKey(k.owner, k.traceId))?.id ?? ""), nearFull.map((k) => k.span.span_id)],
        );
  const existing = new Set(existingRows.map((r) => `${r.run_id}\u0000${r.span_id}`));

  let unchanged = 0;
  const fresh: Array<Kept & { runId: string }> = [];
  const renames: RunRename[] = [];
  for (const key of keys) {
    const run = runOf.get(key);
    const list = traces.get(key) as Kept[];
    if (!run) throw new Error("the trace's run was not found after its insert");
    if (run.closed_at !== null) {
      bump(rejected, "their trace's run is closed", list.length);
      continue;
    }
    const naming = names.get(key);
    if (naming?.fromRoot && naming.name !== run.name) renames.push({ id: run.id, name: naming.name });
    const incoming = list.filter((k) => !existing.has(`${run.id}\u0000${k.span.span_id}`));
    unchanged += list.length - incoming.length;
    const room = Math.max(RUN_LIMITS.spansPerRun - run.span_count, 0);
    if (incoming.length > room) bump(rejected, `their run already holds ${RUN_LIMITS.spansPerRun} spans`, incoming.length - room);
    for (const k of incoming.slice(0, room)) fresh.push({ ...k, runId: run.id });
  }
  const linked = await withProducedArtifacts(tx, fresh, notes);

  const resources = new Map<string, { owner: string; id: string; attributes: string }>();
  for (const k of linked) {
    if (k.stored !== null) resources.set(traceKey(k.owner, k.stored.id), { owner: k.owner, id: k.stored.id, attributes: k.stored.json });
  }
  const rows = linked.map((k) => ({
    run_id: k.runId,
    span_id: k.span.span_id,
    parent_span_id: k.span.parent_span_id,
    name: k.span.name,
    start_time: k.span.start_time,
    end_time: k.span.end_time,
    attributes: k.span.attributes,
    produced_artifact_id: k.span.produced_artifact_id,
    status: k.span.status,
    resource_id: k.stored?.id ?? null,
    conversation_id: conversationOf(k.span.attributes, k.resource),
  }));
  const n = await storeSpanRows(
    tx,
    now,
    rows,
    [...resources.values()].map((r) => ({ owner: r.owner, id: r.id, attributesJson: r.attributes })),
    renames,
  );
  // A span stored meanwhile by a concurrent export of the same trace is not stored twice.
  unchanged += linked.length - n;
  return { runIds: runs.map((r) => r.id), stored: n, unchanged, rejected, notes };
}

/**
 * `cairn.artifact.id` links a span to an artifact of the run's owner (§9). A span naming
 * another owner's artifact, or none, is stored unlinked (its attribute kept), and the
 * answer says so without telling whether the artifact exists. One query for every owner.
 */
async function withProducedArtifacts<T extends Kept>(tx: Sql, spans: T[], notes: Map<string, number>): Promise<T[]> {
  const wanted = [...new Map(spans.flatMap((k) => (k.span.produced_artifact_id ? [[traceKey(k.owner, k.span.produced_artifact_id), k]] : []))).values()];
  if (wanted.length === 0) return spans;
  const rows = await tx.query<{ id: string; owner: string }>(
    `select a.id, a.owner from artifacts a join unnest($1::text[], $2::text[]) as w(owner, id) on a.id = w.id and a.owner = w.owner
      order by a.id for share of a`,
    [wanted.map((k) => k.owner), wanted.map((k) => k.span.produced_artifact_id)],
  );
  const linkable = new Set(rows.map((r) => traceKey(r.owner, r.id)));
  return spans.map((k) => {
    if (k.span.produced_artifact_id === null || linkable.has(traceKey(k.owner, k.span.produced_artifact_id))) return k;
    bump(notes, `${ARTIFACT_ATTRIBUTE} named no artifact of ${k.owner}; the span was stored unlinked`);
    return { ...k, span: { ...k.span, produced_artifact_id: null } };
  });
}
