import { describe, expect, it } from "vitest";
import type { Artifact } from "../../artifact/schemas.js";
import { renderReceiptV1 } from "../../receipt/render.js";
import type { ReceiptMetadata } from "../../receipt/schemas.js";
import type { Run } from "../../run/schemas.js";
import { ageOf, artifactSummaryOf, receiptCardOf, runTimelineOf } from "../index.js";

const provenance: Artifact["provenance"] = { actor: { id: "tok_1", name: "claude", kind: "agent" }, on_behalf_of: "sam", model: "opus-5", surface: "mcp" };

function receipt(metadata: Record<string, unknown>): Artifact {
  return {
    id: "art_1",
    title: "T",
    share_type: "markdown",
    body: "",
    checksum: "sha256:x",
    tags: ["receipt"],
    metadata: {
      schema: "cairn.receipt/v1",
      changed: "Export retries uploads",
      affected: "Finance",
      before: "b",
      after: "a",
      evidence: [],
      outcome: { status: "pending", measure_at: "2026-12-07" },
      human_action: "Nothing",
      remaining: [],
      learned: "nothing new",
      ...metadata,
    },
    owner: "user:sam",
    provenance,
    follows: null,
    produced_by: [],
    acknowledgements: [],
    url: "http://x/s/t",
    created_at: "2026-11-01T09:00:00.000Z",
    expires_at: null,
    retained: true,
    assignee: null,
    ask: null,
    decision: null,
    followed_by: [],
    followed: false,
  };
}

describe("receipt card view", () => {
  it("labels every part, warns on no evidence and names each value's field", () => {
    const card = receiptCardOf(receipt({}));
    expect(card?.header).toBe("Receipt asserted by claude · opus-5 for sam, via MCP");
    expect(card?.action).toEqual({ field: "human_action", label: "You need to do", text: "Nothing", needed: false, waiting: false, acknowledged: null });
    expect(card?.evidence.empty).toBe("No evidence linked");
    expect(card?.outcome.status).toEqual({ field: "outcome.status", value: "pending", text: "Pending" });
    expect(card?.outcome.measure_at?.text).toBe("2026-12-07");
    expect(card?.remaining.empty).toBe("Nothing remains.");
    expect(JSON.stringify(card)).not.toMatch(/verified/i);
  });

  it("lists evidence and remaining items with their paths; a real action is needed", () => {
    const card = receiptCardOf(
      receipt({ human_action: "Approve it", evidence: [{ label: "CI", url: "https://ci" }], remaining: [{ item: "x", owner: "sam" }] }),
    );
    expect(card?.action.needed).toBe(true);
    expect(card?.evidence).toMatchObject({ empty: null, links: [{ field: "evidence.0", label: "CI", url: "https://ci" }] });
    expect(card?.remaining.items).toEqual([{ field: "remaining.0", item: "x", owner: "sam" }]);
  });

  it("finds the caller's details after the rendered fields, exactly as given", () => {
    const base = receipt({});
    const metadata = base.metadata as unknown as ReceiptMetadata;
    const details = "## Notes\n\nRun `make` twice.\n\n## Details\n\nnested heading";
    const withDetails = { ...base, body: renderReceiptV1({ title: base.title, metadata, details }) };
    expect(receiptCardOf(withDetails)?.details).toEqual({ field: "details", label: "Details", text: details });
    expect(receiptCardOf({ ...base, body: renderReceiptV1({ title: base.title, metadata }) })?.details).toBeNull();
  });

  it("reads as measured once a later receipt follows it, naming it only to a viewer who may read it (SPEC §24)", () => {
    const now = new Date("2026-12-08T00:00:00Z");
    const named = receiptCardOf({ ...receipt({}), followed_by: ["art_2"], followed: true }, now);
    expect(named?.outcome).toMatchObject({
      state: "closed",
      measured: { label: "Measured in", followed_by: ["art_2"], unnamed: null },
      line: "Measured in art_2",
    });
    // A share link's holder: followed, but by nothing they may read.
    const unnamed = receiptCardOf({ ...receipt({}), followed: true }, now);
    expect(unnamed?.outcome).toMatchObject({ state: "closed", measured: { followed_by: [], unnamed: "a later receipt" }, line: "Measured in a later receipt" });
    expect(unnamed?.outcome.line).not.toMatch(/Pending|Overdue/);
    const open = receiptCardOf(receipt({}), now);
    expect(open?.outcome).toMatchObject({ state: "overdue", measured: null, line: "Pending · measure at 2026-12-07 · Overdue" });
  });

  it("names the team in a team's card header", () => {
    expect(receiptCardOf({ ...receipt({}), owner: "team:finance" })?.header).toBe("Receipt asserted by claude · opus-5 for sam in team:finance, via MCP");
  });

  it("is null for an artifact that is not a receipt", () => {
    expect(receiptCardOf({ ...receipt({}), metadata: null })).toBeNull();
  });
});

describe("summary view", () => {
  it("says how old, and whether a pending measurement is due (a date from 00:00 UTC)", () => {
    const now = new Date("2026-12-07T00:00:00Z");
    expect(ageOf("2026-12-06T23:59:30Z", now)).toBe("just now");
    expect(ageOf("2026-12-06T22:00:00Z", now)).toBe("2 hours ago");
    expect(ageOf("2026-12-06T00:00:00Z", now)).toBe("1 day ago");
    const row = artifactSummaryOf(receipt({}), now);
    expect(row.outcome).toEqual({
      status: "pending",
      text: "Pending",
      measure_at: "2026-12-07",
      state: "overdue",
      due: true,
      line: "Pending · measure at 2026-12-07 · Overdue",
    });
    expect(artifactSummaryOf(receipt({ outcome: { status: "pending", measure_at: "2026-12-07T00:00:01Z" } }), now).outcome?.state).toBe("upcoming");
    // A followed receipt is measured: never due, never overdue.
    const followed = artifactSummaryOf({ ...receipt({}), followed_by: ["art_2"], followed: true }, now);
    expect([followed.outcome?.state, followed.outcome?.due, followed.outcome?.line]).toEqual(["closed", false, "Measured in a later receipt"]);
    expect(row.action?.needed).toBe(false);
    const asked = receipt({ human_action: "Approve it" });
    expect(artifactSummaryOf(asked, now).action).toMatchObject({ needed: true, waiting: true, acknowledged: null });
    const acked = { ...asked, acknowledgements: [{ by: { user: "sam", token_name: "laptop" }, at: "2026-12-06T09:10:00.000Z", note: null }] };
    expect(artifactSummaryOf(acked, now).action).toMatchObject({ needed: true, waiting: false, acknowledged: "sam acknowledged 2026-12-06 09:10 UTC" });
    expect(artifactSummaryOf({ ...receipt({}), metadata: null }, now).action).toBeNull();
  });
});

describe("run timeline view", () => {
  it("places spans in time with their depth; a span in progress runs to now", () => {
    const run: Run = {
      id: "run_1",
      name: "nightly",
      owner: "user:sam",
      status: "open",
      trace_id: null,
      traced_artifacts: [],
      provenance,
      created_at: "2026-11-01T10:00:00.000Z",
      closed_at: null,
      error: false,
      span_count: 3,
      error_count: 0,
      usage: { input_tokens: 0, output_tokens: 0 },
      models: [],
      duration_ms: null,
      conversation_id: null,
      ended_at: null,
      expires_at: "2026-11-08T10:00:00.000Z",
      spans_next_cursor: null,
      produced: [],
      spans: [
        {
          span_id: "a",
          parent_span_id: null,
          name: "root",
          start_time: "2026-11-01T10:00:00.000Z",
          end_time: "2026-11-01T10:00:10.000Z",
          attributes: {},
          produced_artifact_id: null,
          status: null,
          resource: {},
        },
        {
          span_id: "b",
          parent_span_id: "a",
          name: "child",
          start_time: "2026-11-01T10:00:05.000Z",
          end_time: "2026-11-01T10:00:10.000Z",
          attributes: {},
          produced_artifact_id: "art_1",
          status: null,
          resource: {},
        },
        {
          span_id: "c",
          parent_span_id: "missing",
          name: "orphan",
          start_time: "2026-11-01T10:00:08.000Z",
          end_time: null,
          attributes: {},
          produced_artifact_id: null,
          status: null,
          resource: {},
        },
      ],
    };
    const t = runTimelineOf(run, new Date("2026-11-01T10:00:20.000Z"));
    expect(t.spans.map((s) => [s.depth, s.offset, s.width, s.duration])).toEqual([
      [0, 0, 0.5, "10.0 s"],
      [1, 0.25, 0.25, "5.0 s"],
      [0, 0.4, 0.6, "in progress"],
    ]);
    expect(t.summary).toBe("3 spans over 20.0 s");
    expect(runTimelineOf({ ...run, spans: [] }, new Date()).summary).toBe("No spans yet");
  });
});
