import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { provenanceOf } from "../artifact/internal.js";
import type { ServiceContext } from "../context.js";
import { CairnError, conflict } from "../errors.js";
import { parseOwner } from "../identity/names.js";
import { ownerIssue } from "../identity/owner.js";
import { checkedContext } from "../identity/principal-cache.js";
import { newId } from "../ids.js";
import { forgetPolicy, gatingPolicy } from "../policy/cache.js";
import type { RevisedPolicy } from "../policy/schemas.js";
import { loadRevisedPolicy } from "../policy/store.js";
import type { StaleFact } from "../receipt/write.js";
import { RUN_LIMITS } from "../run/schemas.js";
import type { NormalizedSpan } from "../run/span-checks.js";
import { conversationOf, runTotalsOf, type SpanForTotals, spanTotalsOf } from "../run/totals.js";
import type { Sql } from "../store/port.js";
import { callReadCommitted } from "../store/read-committed.js";
import { ROOT_FIELD } from "../validation.js";
import type { ExportRequest } from "./decode.js";
import { OTLP_LIMITS } from "./limits.js";
import { ARTIFACT_ATTRIBUTE, bump, countSpans, type MappedRequest, mapExportRequest, OWNER_ATTRIBUTE, runNameOf } from "./map.js";
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
 * request's spans are written in one statement whatever their count (runs made or locked,
 * existing spans, linked artifacts, spans + resources + edges + the runs' totals: ADR
 * 0063), runs locked in (owner, trace id) order so concurrent exports of a trace meet in
 * one run and count its spans in turn.
 */
export async function ingestTraces(ctx: ServiceContext, request: ExportRequest): Promise<IngestResult> {
  const total = countSpans(request);
  if (total > OTLP_LIMITS.spansPerRequest) {
    throw new CairnError("payload_too_large", `The request holds ${total} spans; at most ${OTLP_LIMITS.spansPerRequest} are taken per request.`, {
      issues: [{ field: ROOT_FIELD, reason: `holds more than ${OTLP_LIMITS.spansPerRequest} spans`, limit: OTLP_LIMITS.spansPerRequest }],
    });
  }
  const mapped = await mapExportRequest(request);
  let caller = ctx;
  let why: StaleFact = "policy";
  // Policies read for this request, not remembered ones: for a write that cannot re-check them.
  let fresh = false;
  for (let attempt = 1; attempt <= ATTEMPTS; ) {
    const prepared = await prepareSpans(caller, mapped, fresh);
    // A refusal is given only to a caller read for this request (ADR 0027).
    if (prepared.ownerRefused && caller.principalUnchecked) {
      caller = await checkedContext(caller);
      continue;
    }
    const checked = prepared.kept.length <= chunkOf(caller);
    if (!checked && !fresh) {
      caller = await checkedContext(caller);
      fresh = true;
      continue;
    }
    const written = await writeSpans(caller, prepared, checked);
    if (written.status === "stored") return written.result;
    why = written.why;
    if (why === "policy") for (const owner of prepared.policies.keys()) forgetPolicy(caller, owner);
    else caller = await checkedContext(caller, { force: true });
    attempt++;
  }
  throw conflict(`${STALE_WORDS[why]} changed during each of ${ATTEMPTS} attempts to store these spans; nothing was stored. Send them again.`);
}

/** Tries when the write keeps finding what the scan relied on changed. */
const ATTEMPTS = 3;

const STALE_WORDS: Record<StaleFact, string> = {
  token: "The token",
  team: "Your membership of an owner team",
  policy: "An owner's policy",
};

/** An export's spans ready to write, with what their scan relied on. */
interface PreparedSpans {
  kept: Kept[];
  rejected: Map<string, number>;
  notes: Map<string, number>;
  unchanged: number;
  /** Each owner's policy as the spans were scanned under it. */
  policies: Map<string, RevisedPolicy>;
  /** Spans were refused because their owner is one the caller cannot act for. */
  ownerRefused: boolean;
}

/** Owners checked, policies found (remembered ones, which the write re-checks, unless `fresh`), every string scanned once. */
async function prepareSpans(ctx: ServiceContext, mapped: MappedRequest, fresh: boolean): Promise<PreparedSpans> {
  const rejected = new Map(mapped.rejected);
  const notes = new Map(mapped.trimmed);
  const fallbackOwner = `user:${ctx.principal.user.name}`;
  const policies = new Map<string, RevisedPolicy>();
  const seen = new Set<string>();
  const items: Array<SpanToScan & { owner: string; traceId: string }> = [];
  let unchanged = 0;
  let ownerRefused = false;
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
      ownerRefused = true;
      continue;
    }
    const key = `${owner}\u0000${trace_id}\u0000${span.span_id}`;
    if (seen.has(key)) {
      unchanged++;
      continue;
    }
    seen.add(key);
    let policy = policies.get(owner);
    if (!policy) {
      policy = fresh ? await loadRevisedPolicy(ctx.store, owner) : await gatingPolicy(ctx, owner);
      policies.set(owner, policy);
    }
    items.push({ span, resource, rules: policy.policy, owner, traceId: trace_id });
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
  return { kept, rejected, notes, unchanged, policies, ownerRefused };
}

/** Spans written per statement: the embedded store's chunks, or the whole export. */
const chunkOf = (ctx: ServiceContext) => (ctx.store.driver === "pglite" ? EMBEDDED_CHUNK : OTLP_LIMITS.spansPerRequest);

/**
 * Writes the prepared spans. An export of one chunk (every export on PostgreSQL) is one
 * statement that first re-checks what the scan relied on — the token, the caller's owner
 * teams, each owner's policy revision — and writes nothing when any changed (`stale`), as
 * the receipt write does (ADR 0027). The embedded store's chunks of a large export let
 * other requests run in between, so a change could land after some were written: those
 * are written unchecked, with the caller and the policies read for this request.
 */
async function writeSpans(
  ctx: ServiceContext,
  prepared: PreparedSpans,
  checked: boolean,
): Promise<{ status: "stored"; result: IngestResult } | { status: "stale"; why: StaleFact }> {
  const { kept, rejected, notes, policies } = prepared;
  const checks: StaleChecks | null = checked
    ? {
        token_id: ctx.principal.token.id,
        user_id: ctx.principal.user.id,
        teams: [...new Set([...policies.keys()].flatMap((owner) => teamOf(owner)))],
        policies: [...policies].map(([owner, p]) => ({ owner, revision: p.revision })),
      }
    : null;
  let unchanged = prepared.unchanged;
  let stored = 0;
  const runIds = new Set<string>();
  const chunk = chunkOf(ctx);
  for (let at = 0; at < kept.length; at += chunk) {
    if (at > 0) await nextTurn();
    const outcome = await storeSpans(ctx, kept.slice(at, at + chunk), checks);
    if (outcome.stale) return { status: "stale", why: outcome.stale };
    stored += outcome.stored;
    unchanged += outcome.unchanged;
    for (const [reason, n] of outcome.rejected) bump(rejected, reason, n);
    for (const [note, n] of outcome.notes) bump(notes, note, n);
    for (const id of outcome.runIds) runIds.add(id);
  }
  const refusedCount = [...rejected.values()].reduce((a, b) => a + b, 0);
  const lines = [...[...rejected].map(([reason, n]) => `${n} span${n === 1 ? "" : "s"} refused: ${reason}`), ...[...notes].map(([note, n]) => `${n}× ${note}`)];
  return { status: "stored", result: { stored, unchanged, rejected: refusedCount, message: lines.join("; "), run_ids: [...runIds] } };
}

const teamOf = (owner: string): string[] => {
  const parsed = parseOwner(owner);
  return parsed.kind === "team" ? [parsed.name] : [];
};

/** What the write re-checks before it writes (ADR 0027): `cairn_ingest_spans` answers stale when any changed. */
interface StaleChecks {
  token_id: string;
  user_id: string;
  teams: string[];
  policies: Array<{ owner: string; revision: number }>;
}

interface StoreOutcome {
  /** Set when the write found what the scan relied on changed, and wrote nothing. */
  stale?: StaleFact;
  runIds: string[];
  stored: number;
  unchanged: number;
  rejected: Map<string, number>;
  notes: Map<string, number>;
}

const INGEST_CALL = "select cairn_ingest_spans($1, $2::json, $3::json, $4::json, $5::json, $6, $7, $8::json) as result";

/** What `cairn_ingest_spans` answers: what it wrote, or (writing nothing) which checked fact changed. */
interface IngestAnswer {
  stale?: StaleFact;
  run_ids: string[] | null;
  inserted: number;
  admitted: number;
  closed: number;
  stored: number;
  full: number;
  /** Spans that named no artifact of their owner, by owner. */
  unlinked: Record<string, number>;
}

const traceKey = (owner: string, traceId: string) => `${owner}\u0000${traceId}`;

/**
 * Stores one batch of spans (any number of traces and owners) in one call of
 * `cairn_ingest_spans` (store/sql/cairn_ingest_spans.sql, ADR 0063): runs made or locked,
 * closed and full runs refused, artifacts linked, then `cairn_insert_spans`. One statement
 * is its own transaction; a lock conflict (or a database whose default isolation is not
 * read committed) runs it again in a transaction, which retries.
 */
async function storeSpans(ctx: ServiceContext, spans: readonly Kept[], checks: StaleChecks | null): Promise<StoreOutcome> {
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
  const base = ctx.now();
  const resources = new Map<string, string>();
  let position = 0;
  const rows: string[] = [];
  const traceRows = keys.map((key, t) => {
    const list = traces.get(key) as Kept[];
    const resourceOf = new Map(list.map((k) => [k.span, k.resource]));
    const naming = runNameOf(
      list.map((k) => k.span),
      (s) => resourceOf.get(s) ?? {},
    );
    const forTotals: SpanForTotals[] = [];
    for (const k of list) {
      if (k.stored !== null) {
        const resourceKey = traceKey(k.owner, k.stored.id);
        if (!resources.has(resourceKey)) {
          // The attributes are JSON already: spliced in, not parsed and serialized again.
          resources.set(resourceKey, `{"owner":${JSON.stringify(k.owner)},"id":${JSON.stringify(k.stored.id)},"attributes":${k.stored.json}}`);
        }
      }
      const conversation = conversationOf(k.span.attributes, k.resource);
      const totals = spanTotalsOf(k.span.attributes, k.span.status);
      forTotals.push({
        parent_span_id: k.span.parent_span_id,
        start_time: k.span.start_time,
        end_time: k.span.end_time,
        conversation_id: conversation,
        totals,
      });
      rows.push(
        JSON.stringify({
          t,
          n: position++,
          span_id: k.span.span_id,
          parent_span_id: k.span.parent_span_id,
          name: k.span.name,
          start_time: k.span.start_time,
          end_time: k.span.end_time,
          attributes: k.span.attributes,
          produced_artifact_id: k.span.produced_artifact_id,
          status: k.span.status,
          resource_id: k.stored?.id ?? null,
          conversation_id: conversation,
          ...totals,
        }),
      );
    }
    const first = list[0] as Kept;
    return {
      n: t,
      id: newId("run", base),
      owner: first.owner,
      trace_id: first.traceId,
      name: naming.name,
      from_root: naming.fromRoot,
      offered: list.length,
      // A run this export makes is written with its totals when all of these spans go in with it (ADR 0073).
      totals: list.length <= RUN_LIMITS.spansPerRun ? runTotalsOf(forTotals) : null,
    };
  });
  const params = [
    now,
    JSON.stringify(traceRows),
    `[${rows.join(",")}]`,
    `[${[...resources.values()].join(",")}]`,
    JSON.stringify(provenanceOf(ctx, undefined)),
    RUN_LIMITS.spansPerRun,
    spans.some((k) => k.span.produced_artifact_id !== null),
    checks === null ? null : JSON.stringify(checks),
  ];
  const call = async (sql: Sql) => (await sql.query<{ result: IngestAnswer }>(INGEST_CALL, params))[0]?.result;
  const answer = await callReadCommitted(ctx.store, call, { lockConflicts: true });
  if (!answer) throw new Error("cairn_ingest_spans returned nothing");
  if (answer.stale) return { stale: answer.stale, runIds: [], stored: 0, unchanged: 0, rejected, notes };
  if (answer.closed > 0) bump(rejected, "their trace's run is closed", answer.closed);
  if (answer.full > 0) bump(rejected, `their run already holds ${RUN_LIMITS.spansPerRun} spans`, answer.full);
  for (const [owner, n] of Object.entries(answer.unlinked)) bump(notes, `${ARTIFACT_ATTRIBUTE} named no artifact of ${owner}; the span was stored unlinked`, n);
  // Stored already, or stored meanwhile by a concurrent export of the same trace: not stored twice.
  const unchanged = answer.stored + (answer.admitted - answer.inserted);
  return { runIds: answer.run_ids ?? [], stored: answer.inserted, unchanged, rejected, notes };
}
