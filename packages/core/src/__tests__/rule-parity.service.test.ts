import { describe, expect, it } from "vitest";
import { createCairn } from "../cairn.js";
import { actionStateSql, asksAPerson, measureDueAt, needsActionSql, outcomeStateOf, outcomeStateSql } from "../inbox/rules.js";
import { BytesValue } from "../otlp/map.js";
import { IDEMPOTENCY_WINDOW_MS } from "../receipt/idempotency.js";
import { runInErrorOf, runInErrorSql, runStatusOf, runStatusSql } from "../run/internal.js";
import { RUN_STATES } from "../run/schemas.js";
import { spanTotalsOf } from "../run/totals.js";
import { DRIVERS, minimalReceipt, TEST_PUBLIC_URL } from "../testing/index.js";
import { needsHuman } from "../view/card.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

/**
 * SPEC §30: a rule both TypeScript and SQL apply is run on both sides over the same values
 * here, so the two readings cannot drift apart unnoticed.
 */

/** measure_at values at the edges of the due-time rule: dates, zones, fractions shorter and longer than a millisecond. */
const MEASURE_AT = [
  "2026-12-07",
  "2026-01-01T00:00:00Z",
  "2026-01-01T00:00Z",
  "2026-01-01T00:00:00.1Z",
  "2026-01-01T00:00:00.12Z",
  "2026-01-01T00:00:00.0004Z",
  "2026-01-01T00:00:00.0005Z",
  "2026-01-01T00:00:00.0009996Z",
  "2026-01-01T00:00:00.9999999Z",
  "2026-01-01T23:59:59.999999999Z",
  "2026-06-30T23:59:59.9995+05:30",
  "2026-03-01T10:00:00-02:00",
  "2026-03-01T10:00:00.5+0130",
  "9999-12-31T23:59:59.9999994Z",
  "0001-01-01T00:00:00.0001Z",
] as const;

/** human_action values at the edges of "does it ask a person". */
const HUMAN_ACTIONS = [undefined, "Nothing", "nothing", "Nothing.", "Approve the retry budget", " Nothing "] as const;

/** Span attribute values at the edges of what a run's token and model totals count (migration 0017's rule). */
const TOTALS_VALUES: Array<[string, unknown]> = [
  ["a JSON number", 4096],
  ["digits as a string", "4096"],
  ["a fraction", 4096.5],
  ["a negative number", -5],
  ["leading zeros", "0012"],
  ["15 digits", 999_999_999_999_999],
  ["16 digits", 1_234_567_890_123_456],
  ["an exponent", 1e21],
  ["digits with a space", " 12"],
  ["an empty string", ""],
  ["a boolean", true],
  ["null", null],
  ["an object", { n: 1 }],
  ["a list", [1, 2]],
  ["bytes", new BytesValue(Buffer.from("77").toString("base64"), "77")],
  ["no attribute", undefined],
];

/** Stored metadata at the edges of "asks a person": no metadata, no field, JSON null, look-alikes of `Nothing`. */
const STORED_HUMAN_ACTIONS: Array<[string, Record<string, unknown> | null]> = [
  ["no metadata", null],
  ["metadata without the field", { what: "x" }],
  ["a JSON null", { human_action: null }],
  ["Nothing", { human_action: "Nothing" }],
  ["nothing", { human_action: "nothing" }],
  ["Nothing with spaces", { human_action: " Nothing " }],
  ["Nothing.", { human_action: "Nothing." }],
  ["a full-width N", { human_action: "Ｎothing" }],
  ["an empty string", { human_action: "" }],
  ["a request", { human_action: "Approve the retry budget" }],
];

const T = "2026-11-01T12:00:00.000Z";
/** Runs rows at the edges of a run's state: ended, closed, both, neither; no error, one, several. */
const RUN_ROWS = [null, T].flatMap((ended_at) => [null, T].flatMap((closed_at) => [0, 1, 7].map((error_count) => ({ ended_at, closed_at, error_count }))));

describe.each(DRIVERS)("TypeScript and SQL apply the same rules on %s", (driver) => {
  const fx = useTestWorld(driver);

  it.each(TOTALS_VALUES)("run totals: spanTotalsOf and the JSON rule of cairn_insert_spans count %s alike", async (_what, value) => {
    const sam = await fx.world.user("sam");
    const attributes: Record<string, unknown> = {};
    if (value !== undefined) {
      for (const key of ["gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "gen_ai.request.model", "gen_ai.response.model"]) attributes[key] = value;
    }
    const status = { code: "error", message: null };
    const totalsOf = async (withTotals: boolean) => {
      const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "totals" });
      const row = {
        run_id: run.id,
        span_id: "aaaaaaaaaaaaaaaa",
        parent_span_id: null,
        name: "s",
        start_time: "2026-12-01T00:00:00.000Z",
        end_time: null,
        attributes,
        produced_artifact_id: null,
        status,
        resource_id: null,
        conversation_id: null,
        // Without them the function reads the span's JSON, as for a row of the previous release.
        ...(withTotals && spanTotalsOf(attributes, status)),
      };
      await fx.store.query("select cairn_store_spans(now(), $1::json, '[]', '[]')", [JSON.stringify([row])]);
      const [totals] = await fx.store.query("select error_count, input_tokens::text, output_tokens::text, models from runs where id = $1", [run.id]);
      return totals;
    };
    const fromJavaScript = await totalsOf(true);
    expect(fromJavaScript).toEqual(await totalsOf(false));
    expect(fromJavaScript).toMatchObject({ error_count: 1 });
  });

  it.each(MEASURE_AT)("due time: measureDueAt and cairn_measure_due_at read %s as the same instant", async (measureAt) => {
    const [row] = await fx.store.query<{ ms: number }>("select (extract(epoch from cairn_measure_due_at($1)) * 1000)::float8 as ms", [measureAt]);
    expect(new Date(Number(row?.ms)).toISOString()).toBe(measureDueAt(measureAt).toISOString());
  });

  it("due time: the stored measure_due_at, the SQL rule and the TypeScript state agree at the instant it falls due", async () => {
    const sam = await fx.world.user("sam");
    const measureAt = "2030-01-01T00:00:00.0009996Z";
    const created = await fx.world.cairn.invoke(
      "receipt_create",
      sam.ctx(),
      minimalReceipt({ learned: "sub-millisecond due", outcome: { status: "pending", measure_at: measureAt } }),
    );
    const due = measureDueAt(measureAt);
    for (const now of [new Date(due.getTime() - 1), due, new Date(due.getTime() + 1)]) {
      const [row] = await fx.store.query<{ stored: boolean; state: string }>(
        `select a.measure_due_at = cairn_measure_due_at(a.metadata->'outcome'->>'measure_at') as stored,
                ${outcomeStateSql("a", "$2")} as state
           from artifacts a where a.id = $1`,
        [created.id, now.toISOString()],
      );
      expect(row?.stored).toBe(true);
      expect(row?.state).toBe(outcomeStateOf(created.metadata as Parameters<typeof outcomeStateOf>[0], false, now));
    }
  });

  it.each(STORED_HUMAN_ACTIONS)("asks a person: asksAPerson and needsActionSql read %s alike", async (_what, metadata) => {
    const [row] = await fx.store.query<{ asks: boolean }>(`select ${needsActionSql("a")} as asks from (select $1::jsonb as metadata) a`, [
      metadata === null ? null : JSON.stringify(metadata),
    ]);
    expect(row?.asks).toBe(asksAPerson(metadata?.human_action as string | null | undefined));
  });

  it.each(RUN_ROWS)("run state: run_list's filters and a run's status agree on %j", async (run) => {
    const from = "(select $1::timestamptz as ended_at, $2::timestamptz as closed_at, $3::int as error_count) r";
    const args = [run.ended_at, run.closed_at, run.error_count];
    for (const status of RUN_STATES) {
      const [row] = await fx.store.query<{ v: boolean }>(`select ${runStatusSql("r", status)} as v from ${from}`, args);
      expect(row?.v, `status ${status}`).toBe(runStatusOf(run) === status);
    }
    for (const inError of [true, false]) {
      const [row] = await fx.store.query<{ v: boolean }>(`select ${runInErrorSql("r", inError)} as v from ${from}`, args);
      expect(row?.v, `error ${inError}`).toBe(runInErrorOf(run) === inError);
    }
  });

  it.each(HUMAN_ACTIONS)("open action: SQL and the card agree whether human_action %j asks a person", async (human_action) => {
    const sam = await fx.world.user("sam");
    const created = await fx.world.cairn.invoke(
      "receipt_create",
      sam.ctx(),
      minimalReceipt({ learned: `asks ${String(human_action)}`, ...(human_action !== undefined && { human_action }) }),
    );
    const [row] = await fx.store.query<{ state: string | null }>(`select ${actionStateSql("a")} as state from artifacts a where a.id = $1`, [created.id]);
    expect(row?.state === "open").toBe(needsHuman(created.metadata as unknown as { human_action: string }));
  });

  it("idempotency window: a key answers until 24 hours have passed and not at 24 hours, on the created and the refused path", async () => {
    const start = new Date("2030-02-01T00:00:00.000Z");
    let clock = start;
    const timed = createCairn(fx.store, { publicUrl: TEST_PUBLIC_URL }, () => clock);
    const sam = await fx.world.user("sam");
    const ctx = (key: string) => timed.context(sam.principal, "rest", { idempotencyKey: key });

    const first = await timed.invoke("receipt_create", ctx("w-ok"), minimalReceipt({ learned: "window" }));
    const refused = await rejectionOf(timed.invoke("receipt_create", ctx("w-bad"), minimalReceipt({ learned: "" })));

    clock = new Date(start.getTime() + IDEMPOTENCY_WINDOW_MS - 1);
    expect((await timed.invoke("receipt_create", ctx("w-ok"), minimalReceipt({ learned: "window" }))).id).toBe(first.id);
    expect((await rejectionOf(timed.invoke("receipt_create", ctx("w-bad"), minimalReceipt({ learned: "" })))).drop?.id).toBe(refused.drop?.id);

    clock = new Date(start.getTime() + IDEMPOTENCY_WINDOW_MS);
    // The window has passed: the key is free, and so is the receipt (the duplicate window is 24 hours too).
    const later = await timed.invoke("receipt_create", ctx("w-ok"), minimalReceipt({ learned: "window" }));
    expect(later.id).not.toBe(first.id);
    expect((await rejectionOf(timed.invoke("receipt_create", ctx("w-bad"), minimalReceipt({ learned: "" })))).drop?.id).not.toBe(refused.drop?.id);
  });
});
