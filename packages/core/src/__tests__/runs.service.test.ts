import { describe, expect, it } from "vitest";
import { createTestTeam, DRIVERS, minimalReceipt } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

const span = (id: string, extra: Record<string, unknown> = {}) => ({
  span_id: id,
  name: `step ${id}`,
  start_time: "2026-11-01T10:00:00Z",
  end_time: "2026-11-01T10:00:01Z",
  ...extra,
});

describe.each(DRIVERS)("runs on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("creates an open run owned by the caller, with server-derived provenance", async () => {
    const sam = await fx.world.user("sam");
    const run = await fx.world.cairn.invoke("run_create", sam.ctx("mcp"), { name: "nightly-export" });
    expect(run).toMatchObject({ name: "nightly-export", owner: `user:${sam.name}`, status: "open", closed_at: null, spans: [] });
    expect(run.id).toMatch(/^run_[0-9a-z]{26}$/);
    expect(run.provenance).toMatchObject({ on_behalf_of: sam.name, surface: "mcp", actor: { name: "initial", kind: "human" } });
  });

  it("creates a run for a team the caller belongs to", async () => {
    const t = await createTestTeam(fx.world, await fx.world.user("a"));
    const run = await fx.world.cairn.invoke("run_create", t.creator.ctx(), { name: "deploy", owner: `team:${t.name}` });
    expect(run.owner).toBe(`team:${t.name}`);
  });

  it("appends spans and reads them back in start order, times in UTC, attributes in their order", async () => {
    const sam = await fx.world.user("sam");
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "trace" });
    const out = await fx.world.cairn.invoke("run_append_spans", sam.ctx(), {
      run_id: run.id,
      spans: [
        span("child", { parent_span_id: "root", start_time: "2026-11-01T12:00:05.5+02:00", end_time: undefined }),
        span("root", { attributes: { "zeta.last": 1, "alpha.first": "a", flags: [true, false], "http.status_code": 200 } }),
      ],
    });
    expect(out).toEqual({ run_id: run.id, appended: 2, unchanged: 0, span_count: 2 });
    const read = await fx.world.cairn.invoke("run_read", sam.ctx(), { run_id: run.id });
    expect(read.spans.map((s) => s.span_id)).toEqual(["root", "child"]);
    expect(read.spans[1]).toEqual({
      span_id: "child",
      parent_span_id: "root",
      name: "step child",
      start_time: "2026-11-01T10:00:05.500Z",
      end_time: null,
      attributes: {},
      produced_artifact_id: null,
      // Appended spans carry no OpenTelemetry status or resource (OTLP ingest fills them).
      status: null,
      resource: {},
    });
    expect(Object.keys(read.spans[0]?.attributes ?? {})).toEqual(["zeta.last", "alpha.first", "flags", "http.status_code"]);
  });

  it("a span naming a receipt of the run's owner links them: produced_by on the receipt", async () => {
    const sam = await fx.world.user("sam");
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "linked" }));
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "writer" });
    await fx.world.cairn.invoke("run_append_spans", sam.ctx(), {
      run_id: run.id,
      spans: [span("a", { produced_artifact_id: receipt.id }), span("b", { produced_artifact_id: receipt.id })],
    });
    const read = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: receipt.id });
    expect(read.produced_by).toEqual([{ id: run.id, name: "writer" }]);
    const page = await fx.world.cairn.invoke("artifact_search", sam.ctx(), { tag: "receipt" });
    expect(page.items.find((i) => i.id === receipt.id)?.produced_by).toEqual([{ id: run.id, name: "writer" }]);
  });

  // Each broken rule names the span's field, with the limit where one applies.
  const BROKEN: Array<[string, unknown[], string, number?]> = [
    [
      "unknown produced artifact",
      [span("a"), span("b"), span("c", { produced_artifact_id: "art_00000000000000000000000000" })],
      "spans.2.produced_artifact_id",
    ],
    ["bad start time", [span("a"), span("b", { start_time: "yesterday" })], "spans.1.start_time"],
    ["date without time", [span("a", { start_time: "2026-11-01" })], "spans.0.start_time"],
    ["end before start", [span("a", { end_time: "2026-11-01T09:00:00Z" })], "spans.0.end_time"],
    ["missing name", [span("a", { name: undefined })], "spans.0.name"],
    ["span id repeated in the batch", [span("a"), span("a")], "spans.1.span_id"],
    ["span id with spaces", [span("a b")], "spans.0.span_id"],
    ["own parent", [span("a", { parent_span_id: "a" })], "spans.0.parent_span_id"],
    ["nested attribute", [span("a", { attributes: { deep: { x: 1 } } })], "spans.0.attributes.deep"],
    ["too many attributes", [span("a", { attributes: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i])) })], "spans.0.attributes", 64],
    ["attribute key too long", [span("a", { attributes: { ["k".repeat(129)]: 1 } })], `spans.0.attributes.${"k".repeat(128)}…`, 128],
    ["unknown span field", [span("a", { trace_state: "x" })], "spans.0.trace_state"],
    ["no spans", [], "spans", 1],
    ["too many spans", Array.from({ length: 501 }, (_, i) => span(`s${i}`)), "spans", 500],
  ];

  it.each(BROKEN)("%s → 422 naming %s; nothing is stored", async (_rule, spans, field, limit) => {
    const sam = await fx.world.user("sam");
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "bad" });
    const err = await rejectionOf(fx.world.cairn.invoke("run_append_spans", sam.ctx(), { run_id: run.id, spans }));
    expect(err.code).toBe("validation_failed");
    const issue = err.issues?.find((i) => i.field === field);
    expect(issue, JSON.stringify(err.issues)).toBeDefined();
    if (limit !== undefined) expect(issue?.limit).toBe(limit);
    expect((await fx.world.cairn.invoke("run_read", sam.ctx(), { run_id: run.id })).spans).toEqual([]);
  });

  it("a retried batch is a no-op; changing a stored span is refused", async () => {
    const sam = await fx.world.user("sam");
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "retry" });
    const batch = [span("a", { attributes: { x: 1, y: "z" } }), span("b")];
    await fx.world.cairn.invoke("run_append_spans", sam.ctx(), { run_id: run.id, spans: batch });
    const retried = await fx.world.cairn.invoke("run_append_spans", sam.ctx(), {
      run_id: run.id,
      spans: [span("a", { attributes: { y: "z", x: 1 }, start_time: "2026-11-01T11:00:00+01:00" }), span("b"), span("c")],
    });
    expect(retried).toEqual({ run_id: run.id, appended: 1, unchanged: 2, span_count: 3 });
    const err = await rejectionOf(fx.world.cairn.invoke("run_append_spans", sam.ctx(), { run_id: run.id, spans: [span("d"), span("b", { name: "renamed" })] }));
    expect(err.issues).toEqual([{ field: "spans.1.span_id", reason: "is already in this run with other fields; spans cannot be changed" }]);
    expect((await fx.world.cairn.invoke("run_read", sam.ctx(), { run_id: run.id })).spans).toHaveLength(3);
  });

  it("a closed run accepts no spans; closing again changes nothing", async () => {
    const sam = await fx.world.user("sam");
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "done" });
    const closed = await fx.world.cairn.invoke("run_close", sam.ctx(), { run_id: run.id });
    expect(closed.status).toBe("ended");
    expect(closed.closed_at).not.toBeNull();
    const again = await fx.world.cairn.invoke("run_close", sam.ctx(), { run_id: run.id });
    expect(again.closed_at).toBe(closed.closed_at);
    const err = await rejectionOf(fx.world.cairn.invoke("run_append_spans", sam.ctx(), { run_id: run.id, spans: [span("late")] }));
    expect(err.code).toBe("validation_failed");
    expect(err.issues).toEqual([{ field: "run_id", reason: "names a closed run; spans can only be appended to an open run" }]);
  });

  it("appends racing a close either land before it or are refused, never after", async () => {
    const sam = await fx.world.user("sam");
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "race" });
    const appends = Array.from({ length: 6 }, (_, i) => fx.world.cairn.invoke("run_append_spans", sam.ctx(), { run_id: run.id, spans: [span(`r${i}`)] }));
    const [closed, ...results] = await Promise.allSettled([fx.world.cairn.invoke("run_close", sam.ctx(), { run_id: run.id }), ...appends]);
    if (closed.status !== "fulfilled") throw closed.reason;
    const stored = (await fx.world.cairn.invoke("run_read", sam.ctx(), { run_id: run.id })).spans;
    expect(stored).toHaveLength(results.filter((r) => r.status === "fulfilled").length);
    expect(stored.length).toBe(closed.value.spans.length);
  });
});
