import { describe, expect, it } from "vitest";
import { rejectionOf, useTestWorld } from "../../__tests__/helpers.js";
import { sweepExpiredRuns } from "../../lifecycle/sweep-runs.js";
import { receiveTraces } from "../../otlp/receive.js";
import { DRIVERS, minimalReceipt, type TestUser } from "../../testing/index.js";

/**
 * Runs people can read (SPEC §28) on both stores: state and totals on the run, the list
 * and its filters, receipts listed once, paged spans, delete and expiry. Runs are made
 * through OTLP/JSON (core's receiveTraces, what POST /v1/traces calls) and run_create.
 */

let counter = 0;
const hex = (bytes: number) => (++counter).toString(16).padStart(bytes * 2, "0");
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const int = (key: string, value: number) => ({ key, value: { intValue: String(value) } });

/** Nanoseconds since the epoch of an ISO instant plus `ms`, as OTLP/JSON writes them. */
const nanos = (iso: string, ms: number) => `${BigInt(Date.parse(iso) + ms) * 1_000_000n}`;
const T0 = "2026-11-01T10:00:00.000Z";

interface SpanSpec {
  spanId: string;
  parentSpanId?: string;
  name: string;
  from: number;
  to: number;
  attributes?: unknown[];
  error?: boolean;
}

const request = (traceId: string, spans: SpanSpec[], resource: unknown[] = [str("service.name", "svc")]) => ({
  resourceSpans: [
    {
      resource: { attributes: resource },
      scopeSpans: [
        {
          spans: spans.map((s) => ({
            traceId,
            spanId: s.spanId,
            ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
            name: s.name,
            startTimeUnixNano: nanos(T0, s.from),
            endTimeUnixNano: nanos(T0, s.to),
            attributes: s.attributes ?? [],
            ...(s.error ? { status: { code: 2, message: "tool failed" } } : {}),
          })),
        },
      ],
    },
  ],
});

describe.each(DRIVERS)("runs people can read on %s", (driver) => {
  let clock = Date.parse("2026-11-01T12:00:00.000Z");
  const fx = useTestWorld(driver, () => new Date(clock));

  /** Sends one trace as OTLP/JSON and returns its run id (ingest keeps its state and totals on the row). */
  async function trace(user: TestUser, spans: SpanSpec[], traceId = hex(16)): Promise<string> {
    clock += 1000; // one run per second: ids (and so the list's order) follow creation
    const body = Buffer.from(JSON.stringify(request(traceId, spans)));
    const reply = await receiveTraces(user.ctx(), { body, contentType: "application/json", contentEncoding: undefined });
    expect(reply.code).toBe("ok");
    const [run] = (await fx.world.cairn.invoke("run_list", user.ctx(), { q: traceId })).items;
    if (!run) throw new Error("no run for the trace");
    return run.id;
  }

  /** A receipt sent from inside a new trace (its traceparent names the trace and the root span). */
  async function receiptInTrace(user: TestUser, learned: string) {
    const traceId = hex(16);
    const root = hex(8);
    const receipt = await fx.world.cairn.invoke("receipt_create", user.ctx("rest", { traceparent: `00-${traceId}-${root}-01` }), minimalReceipt({ learned }));
    return { receipt, traceId, root };
  }

  /** An agent's turn: a root, two chat spans (300/30 tokens, two models) and a tool span that failed. */
  const agentTurn = (opts: { agent?: string; conversation?: string; model?: string; error?: boolean } = {}): SpanSpec[] => {
    const root = hex(8);
    const conv = opts.conversation ? [str("gen_ai.conversation.id", opts.conversation)] : [];
    return [
      { spanId: root, name: "invoke_agent", from: 0, to: 2500, attributes: [str("gen_ai.agent.name", opts.agent ?? "planner"), ...conv] },
      {
        spanId: hex(8),
        parentSpanId: root,
        name: "chat",
        from: 100,
        to: 900,
        attributes: [str("gen_ai.request.model", opts.model ?? "gpt-4o"), int("gen_ai.usage.input_tokens", 100), int("gen_ai.usage.output_tokens", 10)],
      },
      {
        spanId: hex(8),
        parentSpanId: root,
        name: "chat",
        from: 1000,
        to: 2000,
        attributes: [
          str("gen_ai.request.model", opts.model ?? "gpt-4o"),
          str("gen_ai.response.model", "gpt-4o-mini"),
          int("gen_ai.usage.input_tokens", 200),
          int("gen_ai.usage.output_tokens", 20),
        ],
      },
      { spanId: hex(8), parentSpanId: root, name: "execute_tool search", from: 2000, to: 2400, error: opts.error ?? true },
    ];
  };

  it("a 4-span trace with one error and two chat spans: ended, error, usage 300/30, models, counts and duration on the run and the list", async () => {
    const sam = await fx.world.user("sam");
    const id = await trace(sam, agentTurn());
    const run = await fx.world.cairn.invoke("run_read", sam.ctx(), { run_id: id });
    const totals = {
      status: "ended",
      error: true,
      usage: { input_tokens: 300, output_tokens: 30 },
      models: ["gpt-4o", "gpt-4o-mini"],
      span_count: 4,
      error_count: 1,
      duration_ms: 2500,
      ended_at: "2026-11-01T10:00:02.500Z",
    };
    expect(run).toMatchObject({ ...totals, spans_next_cursor: null });
    expect(run.spans).toHaveLength(4);
    const [item] = (await fx.world.cairn.invoke("run_list", sam.ctx(), {})).items;
    expect(item).toMatchObject({ id, ...totals });
  });

  it("a run closed by REST is ended; an open one is open", async () => {
    const sam = await fx.world.user("sam");
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "manual" });
    expect(run).toMatchObject({ status: "open", error: false, span_count: 0, duration_ms: null, ended_at: null, produced: [] });
    const closed = await fx.world.cairn.invoke("run_close", sam.ctx(), { run_id: run.id });
    expect(closed.status).toBe("ended");
    expect(closed.ended_at).toBe(closed.closed_at);
  });

  it("two runs of one conversation list together, and only they", async () => {
    const sam = await fx.world.user("sam");
    const a = await trace(sam, agentTurn({ conversation: "conv-42" }));
    await trace(sam, agentTurn({ conversation: "conv-7" }));
    const b = await trace(sam, agentTurn({ conversation: "conv-42" }));
    const page = await fx.world.cairn.invoke("run_list", sam.ctx(), { conversation: "conv-42" });
    expect(page.items.map((r) => r.id)).toEqual([b, a]);
    expect(page.items.every((r) => r.conversation_id === "conv-42")).toBe(true);
  });

  it("each filter returns exactly the right runs, combined with AND, cursor-paged", async () => {
    const sam = await fx.world.user("sam");
    clock = Date.parse("2026-11-02T09:00:00.000Z");
    const failed = await trace(sam, agentTurn({ agent: "planner", model: "gpt-4o", error: true }));
    clock = Date.parse("2026-11-03T09:00:00.000Z");
    const fine = await trace(sam, agentTurn({ agent: "writer", model: "claude-sonnet-4", error: false }));
    clock = Date.parse("2026-11-04T09:00:00.000Z");
    const manual = (await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "manual" })).id;
    const ids = async (filters: Record<string, unknown>) => (await fx.world.cairn.invoke("run_list", sam.ctx(), filters as never)).items.map((r) => r.id);

    expect(await ids({})).toEqual([manual, fine, failed]);
    expect(await ids({ agent: "planner" })).toEqual([failed]);
    expect(await ids({ model: "claude-sonnet-4" })).toEqual([fine]);
    expect(await ids({ model: "gpt-4o-mini" })).toEqual([fine, failed]);
    expect(await ids({ status: "open" })).toEqual([manual]);
    expect(await ids({ status: "ended" })).toEqual([fine, failed]);
    expect(await ids({ error: true })).toEqual([failed]);
    expect(await ids({ error: "false" })).toEqual([manual, fine]);
    expect(await ids({ since: "2026-11-03" })).toEqual([manual, fine]);
    expect(await ids({ before: "2026-11-03" })).toEqual([failed]);
    expect(await ids({ since: "2026-11-02T10:00:00Z", before: "2026-11-04" })).toEqual([fine]);
    expect(await ids({ q: "MAN" })).toEqual([manual]);
    expect(await ids({ status: "ended", error: false, model: "gpt-4o-mini" })).toEqual([fine]);
    // The agent token's name is an agent too: sam's token here is "initial".
    expect(await ids({ agent: "initial" })).toEqual([manual, fine, failed]);

    const first = await fx.world.cairn.invoke("run_list", sam.ctx(), { status: "ended", limit: 1 });
    expect(first.items.map((r) => r.id)).toEqual([fine]);
    const second = await fx.world.cairn.invoke("run_list", sam.ctx(), { status: "ended", limit: 1, cursor: first.next_cursor as string });
    expect(second.items.map((r) => r.id)).toEqual([failed]);

    const bad = await rejectionOf(fx.world.cairn.invoke("run_list", sam.ctx(), { status: "closed" } as never));
    expect(bad.code).toBe("validation_failed");
    expect(JSON.stringify(bad.issues)).toContain("status");
  });

  it("a receipt linked by a span attribute and by traceparent is listed once", async () => {
    const sam = await fx.world.user("sam");
    const { receipt, traceId, root } = await receiptInTrace(sam, "linked both ways");
    const writer = hex(8);
    const id = await trace(
      sam,
      [
        { spanId: root, name: "invoke_agent", from: 0, to: 100 },
        { spanId: writer, parentSpanId: root, name: "write", from: 10, to: 50, attributes: [str("cairn.artifact.id", receipt.id)] },
      ],
      traceId,
    );
    const run = await fx.world.cairn.invoke("run_read", sam.ctx(), { run_id: id });
    expect(run.produced).toEqual([{ artifact_id: receipt.id, span_id: writer, linked_by: ["span", "traceparent"] }]);
    const read = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: receipt.id });
    expect(read.produced_by).toEqual([{ id, name: "svc" }]);
  });

  it("a receipt that named only its trace id is produced by that trace's run, on a read and on a page", async () => {
    const sam = await fx.world.user("sam");
    const { receipt, traceId, root } = await receiptInTrace(sam, "linked by its trace id alone");
    const id = await trace(sam, [{ spanId: root, name: "invoke_agent", from: 0, to: 100 }], traceId);
    const read = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: receipt.id });
    expect(read.produced_by).toEqual([{ id, name: "svc" }]);
    const page = await fx.world.cairn.invoke("artifact_search", sam.ctx(), {});
    expect(page.items.find((a) => a.id === receipt.id)?.produced_by).toEqual([{ id, name: "svc" }]);
  });

  it("reads a run's spans a page at a time", async () => {
    const sam = await fx.world.user("sam");
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "paged" });
    const spans = Array.from({ length: 5 }, (_, i) => ({ span_id: `s${i}`, name: `step ${i}`, start_time: `2026-11-01T10:00:0${i}.000123Z` }));
    await fx.world.cairn.invoke("run_append_spans", sam.ctx(), { run_id: run.id, spans });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const read = await fx.world.cairn.invoke("run_read", sam.ctx(), { run_id: run.id, spans_limit: 2, ...(cursor ? { spans_cursor: cursor } : {}) });
      seen.push(...read.spans.map((s) => s.span_id));
      if (read.spans_next_cursor === null) break;
      cursor = read.spans_next_cursor;
    }
    expect(seen).toEqual(["s0", "s1", "s2", "s3", "s4"]);
    const bad = await rejectionOf(fx.world.cairn.invoke("run_read", sam.ctx(), { run_id: run.id, spans_cursor: "nonsense" }));
    expect(bad.issues).toEqual([{ field: "spans_cursor", reason: "is not a cursor this server issued" }]);
  });

  it("the owner deletes a run: its receipts stay and stop naming it, another user gets 404, the trace starts anew", async () => {
    const sam = await fx.world.user("sam");
    const eve = await fx.world.user("eve");
    const { receipt, traceId, root } = await receiptInTrace(sam, "outlives its run");
    const spans = [{ spanId: root, name: "invoke_agent", from: 0, to: 100, attributes: [str("cairn.artifact.id", receipt.id)] }];
    const id = await trace(sam, spans, traceId);

    expect((await rejectionOf(fx.world.cairn.invoke("run_delete", eve.ctx(), { run_id: id }))).code).toBe("not_found");
    expect(await fx.world.cairn.invoke("run_delete", sam.ctx(), { run_id: id })).toEqual({ id, deleted: true, receipts_kept: 1 });
    expect((await rejectionOf(fx.world.cairn.invoke("run_read", sam.ctx(), { run_id: id }))).code).toBe("not_found");
    expect((await rejectionOf(fx.world.cairn.invoke("run_delete", sam.ctx(), { run_id: id }))).code).toBe("not_found");
    const kept = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: receipt.id });
    expect(kept.produced_by).toEqual([]);
    const [links] = await fx.store.query<{ n: number }>(
      "select (select count(*) from produced_edges where artifact_id = $1)::int + (select count(*) from trace_links where artifact_id = $1)::int as n",
      [receipt.id],
    );
    expect(links?.n).toBe(0);

    const again = await trace(sam, [{ spanId: hex(8), name: "late", from: 0, to: 10 }], traceId);
    expect(again).not.toBe(id);
    expect((await fx.world.cairn.invoke("run_read", sam.ctx(), { run_id: again })).produced).toEqual([]);
  });

  it("an agent token may not delete a run", async () => {
    const sam = await fx.world.user("sam");
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "kept" });
    const { token } = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: "bot", kind: "agent" });
    const { authenticate } = await import("../../identity/tokens.js");
    const agent = await authenticate(fx.store, token);
    const err = await rejectionOf(fx.world.cairn.invoke("run_delete", fx.world.cairn.context(agent as never, "rest"), { run_id: run.id }));
    expect(err.code).toBe("forbidden");
  });

  it("runs expire under the owner's TTL unless a live receipt names them, which extends them", async () => {
    const sam = await fx.world.user("sam");
    await fx.world.cairn.invoke("policy_set", sam.ctx(), { default_ttl_days: 2 });
    clock = Date.parse("2026-12-01T00:00:00.000Z");
    const stray = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "stray" });
    expect(stray.expires_at).toBe("2026-12-03T00:00:00.000Z");
    const named = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "named" });
    // The receipt lives 3 days (the policy's 2 days from a day later).
    clock = Date.parse("2026-12-02T00:00:00.000Z");
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "keeps its run" }));
    await fx.world.cairn.invoke("run_append_spans", sam.ctx(), {
      run_id: named.id,
      spans: [{ span_id: "root", name: "write", start_time: "2026-12-02T00:00:00Z", produced_artifact_id: receipt.id }],
    });

    const swept = await sweepExpiredRuns(fx.store, new Date("2026-12-03T00:00:01.000Z"));
    expect(swept.purged).toBeGreaterThanOrEqual(1);
    expect((await rejectionOf(fx.world.cairn.invoke("run_read", sam.ctx(), { run_id: stray.id }))).code).toBe("not_found");
    const kept = await fx.world.cairn.invoke("run_read", sam.ctx(), { run_id: named.id });
    expect(kept.expires_at).toBe(receipt.expires_at);

    // Once the receipt has expired (and been swept), the run goes too.
    await fx.store.query("delete from artifacts where id = $1", [receipt.id]);
    await sweepExpiredRuns(fx.store, new Date(Date.parse(receipt.expires_at as string) + 1000));
    expect((await rejectionOf(fx.world.cairn.invoke("run_read", sam.ctx(), { run_id: named.id }))).code).toBe("not_found");
  });
});
