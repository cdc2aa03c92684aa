import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { OTLP_LIMITS } from "../otlp/limits.js";
import { otlpTypes } from "../otlp/proto.js";
import { receiveTraces } from "../otlp/receive.js";
import type { TestUser } from "../testing/index.js";
import { DRIVERS, minimalReceipt } from "../testing/index.js";
import { useTestWorld } from "./helpers.js";

/** SPEC §21's mapping rules through core's receiveTraces, on both stores (the process test drives the real exporters). */

let counter = 0;
const hex = (bytes: number) => (++counter).toString(16).padStart(bytes * 2, "0");
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });

interface SpanSpec {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name?: string;
  attributes?: unknown[];
  status?: unknown;
}

const T0 = "1764600000000000000";
const otlpSpan = (s: SpanSpec) => ({ name: "step", startTimeUnixNano: T0, endTimeUnixNano: "1764600000500000000", ...s });
const request = (spans: SpanSpec[], resource: unknown[] = [str("service.name", "svc")]) => ({
  resourceSpans: [{ resource: { attributes: resource }, scopeSpans: [{ spans: spans.map(otlpSpan) }] }],
});

/** The request as OTLP/JSON, or as protobuf encoded by the official messages (ids as bytes). */
function body(json: unknown, encoding: "json" | "protobuf") {
  if (encoding === "json") return { body: Buffer.from(JSON.stringify(json)), contentType: "application/json", contentEncoding: undefined };
  const { request: type } = otlpTypes();
  const withBytes = JSON.parse(JSON.stringify(json), (key, value) =>
    (key === "traceId" || key === "spanId" || key === "parentSpanId") && typeof value === "string" ? Buffer.from(value, "hex") : value,
  );
  return { body: type.encode(type.fromObject(withBytes)).finish(), contentType: "application/x-protobuf", contentEncoding: undefined };
}

describe.each(DRIVERS)("OTLP ingest on %s", (driver) => {
  const fx = useTestWorld(driver);
  const send = (user: TestUser, json: unknown, encoding: "json" | "protobuf" = "json") => receiveTraces(user.ctx(), body(json, encoding));
  const runsOf = async (user: TestUser, q: string) => (await fx.world.cairn.invoke("run_list", user.ctx(), { q })).items;
  const readRun = async (user: TestUser, id: string) => fx.world.cairn.invoke("run_read", user.ctx(), { run_id: id });

  it("maps both encodings alike: one run per trace, ids as lowercase hex, AnyValues as JSON, status kept", async () => {
    const sam = await fx.world.user("sam");
    for (const encoding of ["json", "protobuf"] as const) {
      const traceId = hex(16);
      const root = hex(8);
      const child = hex(8);
      const reply = await send(
        sam,
        request([
          { traceId, spanId: root, name: "invoke_agent planner", attributes: [str("gen_ai.agent.name", `planner-${encoding}`)] },
          {
            traceId,
            spanId: child,
            parentSpanId: root,
            name: "execute_tool x",
            status: { code: 2, message: "boom" },
            attributes: [
              { key: "big", value: { intValue: "9007199254740993" } },
              { key: "d", value: { doubleValue: 0.5 } },
              // Base64 in OTLP/JSON; protobufjs turns it into the bytes the protobuf body carries.
              { key: "b", value: { bytesValue: "AQI=" } },
              { key: "list", value: { arrayValue: { values: [{ stringValue: "a" }, { intValue: "2" }] } } },
            ],
          },
        ]),
        encoding,
      );
      expect(reply.code).toBe("ok");
      expect(reply.result).toMatchObject({ stored: 2, unchanged: 0, rejected: 0 });
      const [summary] = await runsOf(sam, traceId);
      expect(summary).toMatchObject({ name: `planner-${encoding}`, trace_id: traceId, span_count: 2, error_count: 1 });
      const run = await readRun(sam, summary?.id as string);
      const stored = run.spans.find((s) => s.span_id === child);
      expect(stored).toMatchObject({
        parent_span_id: root,
        status: { code: "error", message: "boom" },
        attributes: { big: "9007199254740993", d: 0.5, b: "AQI=", list: ["a", 2] },
        resource: { "service.name": "svc" },
        start_time: "2025-12-01T14:40:00.000Z",
        end_time: "2025-12-01T14:40:00.500Z",
      });
    }
  });

  it("names the run by service.name, then by the root span's name, and leaves a span already stored as it was", async () => {
    const sam = await fx.world.user("sam");
    const traceId = hex(16);
    const root = hex(8);
    await send(sam, request([{ traceId, spanId: root, name: "nightly job" }], []));
    expect((await runsOf(sam, traceId))[0]?.name).toBe("nightly job");
    const again = await send(
      sam,
      request(
        [
          { traceId, spanId: root, name: "renamed?" },
          { traceId, spanId: hex(8), parentSpanId: root },
        ],
        [],
      ),
    );
    expect(again.result).toMatchObject({ stored: 1, unchanged: 1 });
    const [summary] = await runsOf(sam, traceId);
    const run = await readRun(sam, summary?.id as string);
    expect(run.spans.find((s) => s.span_id === root)?.name).toBe("nightly job");
    expect(summary?.span_count).toBe(2);
  });

  it("sends each owner's trace to its own run: cairn.owner names a team the caller is in, or the spans are refused", async () => {
    const sam = await fx.world.user("sam");
    const dana = await fx.world.user("dana");
    const team = await fx.world.team([sam]);
    const traceId = hex(16);
    await send(sam, request([{ traceId, spanId: hex(8) }]));
    await send(dana, request([{ traceId, spanId: hex(8) }]));
    expect(await runsOf(sam, traceId)).toHaveLength(1);
    expect(await runsOf(dana, traceId)).toHaveLength(1);
    expect((await runsOf(sam, traceId))[0]?.id).not.toBe((await runsOf(dana, traceId))[0]?.id);

    const teamTrace = hex(16);
    const toTeam = await send(sam, request([{ traceId: teamTrace, spanId: hex(8) }], [str("cairn.owner", team)]));
    expect(toTeam.result?.stored).toBe(1);
    expect((await runsOf(sam, teamTrace))[0]?.owner).toBe(team);
    const refused = await send(dana, request([{ traceId: hex(16), spanId: hex(8) }], [str("cairn.owner", team)]));
    expect(refused.result).toMatchObject({ stored: 0, rejected: 1 });
    expect(refused.result?.message).toContain("cairn.owner names an owner you cannot act for");
  });

  it("refuses spans of a closed run, and under secrets: block the span that carries a secret, in partialSuccess", async () => {
    const sam = await fx.world.user("sam");
    const traceId = hex(16);
    await send(sam, request([{ traceId, spanId: hex(8) }]));
    const [summary] = await runsOf(sam, traceId);
    await fx.world.cairn.invoke("run_close", sam.ctx(), { run_id: summary?.id as string });
    const late = await send(sam, request([{ traceId, spanId: hex(8) }]), "protobuf");
    expect(late.code).toBe("ok");
    const { response } = otlpTypes();
    const decoded = response.toObject(response.decode(late.body), { longs: Number });
    expect(decoded).toEqual({ partialSuccess: { rejectedSpans: 1, errorMessage: "1 span refused: their trace's run is closed" } });

    await fx.world.cairn.invoke("policy_set", sam.ctx(), { secrets: "block" });
    const secret = ["ghp_", "A1b2C3d4E5f6G7h8I9j0", "K1l2M3n4O5p6Q7r8"].join("");
    const blockedTrace = hex(16);
    const blocked = await send(
      sam,
      request([
        { traceId: blockedTrace, spanId: hex(8), attributes: [str("auth", secret)] },
        { traceId: blockedTrace, spanId: hex(8) },
      ]),
    );
    expect(blocked.result).toMatchObject({ stored: 1, rejected: 1 });
    expect(blocked.result?.message).toContain("contains a secret; the owner's policy blocks secrets");
    const run = await readRun(sam, (await runsOf(sam, blockedTrace))[0]?.id as string);
    expect(JSON.stringify(run)).not.toContain(secret);
  });

  it("stops a run at 10,000 spans: the spans past it are refused, the rest stored", async () => {
    const sam = await fx.world.user("sam");
    const traceId = hex(16);
    await send(sam, request([{ traceId, spanId: hex(8) }]));
    const [summary] = await runsOf(sam, traceId);
    // Fill the run to one below the bound directly: 9,998 more rows, counted on the run as a writer counts them.
    await fx.store.query(
      `insert into spans (run_id, span_id, name, start_time, attributes, appended_at)
       select $1, 'fill' || g, 'fill', now(), '{}'::json, now() from generate_series(1, 9998) g`,
      [summary?.id],
    );
    await fx.store.query("update runs set span_count = span_count + 9998 where id = $1", [summary?.id]);
    const reply = await send(
      sam,
      request([
        { traceId, spanId: hex(8) },
        { traceId, spanId: hex(8) },
      ]),
    );
    expect(reply.result).toMatchObject({ stored: 1, rejected: 1 });
    expect(reply.result?.message).toBe("1 span refused: their run already holds 10000 spans");
    expect((await runsOf(sam, traceId))[0]?.span_count).toBe(10_000);
  });

  it("links cairn.artifact.id only to an artifact of the run's owner", async () => {
    const sam = await fx.world.user("sam");
    const dana = await fx.world.user("dana");
    const mine = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "mine" }));
    const theirs = await fx.world.cairn.invoke("receipt_create", dana.ctx(), minimalReceipt({ learned: "theirs" }));
    const traceId = hex(16);
    const reply = await send(
      sam,
      request([
        { traceId, spanId: hex(8), attributes: [str("cairn.artifact.id", mine.id)] },
        { traceId, spanId: hex(8), attributes: [str("cairn.artifact.id", theirs.id)] },
      ]),
    );
    expect(reply.result).toMatchObject({ stored: 2, rejected: 0 });
    expect(reply.result?.message).toContain(`cairn.artifact.id named no artifact of user:${sam.name}`);
    const run = (await runsOf(sam, traceId))[0];
    expect((await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: mine.id })).produced_by).toEqual([{ id: run?.id, name: "svc" }]);
    expect((await fx.world.cairn.invoke("artifact_read", dana.ctx(), { id: theirs.id })).produced_by).toEqual([]);
  });

  it("refuses what OTLP/HTTP refuses: 10,000 spans per request, 4 MiB inflated, other types and encodings, a malformed body", async () => {
    const sam = await fx.world.user("sam");
    const traceId = hex(16);
    const many = request(Array.from({ length: OTLP_LIMITS.spansPerRequest + 1 }, (_, i) => ({ traceId, spanId: (i + 1).toString(16).padStart(16, "0") })));
    const tooMany = await send(sam, many);
    expect(tooMany.code).toBe("payload_too_large");
    expect(JSON.parse(Buffer.from(tooMany.body).toString())).toMatchObject({ code: 8, error: { issues: [{ limit: OTLP_LIMITS.spansPerRequest }] } });
    expect(await runsOf(sam, traceId)).toEqual([]);

    const bomb = gzipSync(Buffer.alloc(OTLP_LIMITS.requestBytes + 1));
    const inflated = await receiveTraces(sam.ctx(), { body: bomb, contentType: "application/x-protobuf", contentEncoding: "gzip" });
    expect(inflated.code).toBe("payload_too_large");
    expect(inflated.contentType).toBe("application/x-protobuf");
    const { status } = otlpTypes();
    expect(status.toObject(status.decode(inflated.body))).toMatchObject({ code: 8, message: expect.stringContaining("4194304 bytes after decompression") });

    const gzipped = await receiveTraces(sam.ctx(), { ...body(request([{ traceId: hex(16), spanId: hex(8) }]), "json"), contentEncoding: "gzip" });
    expect(gzipped.code).toBe("validation_failed");
    const ok = await receiveTraces(sam.ctx(), {
      body: gzipSync(JSON.stringify(request([{ traceId: hex(16), spanId: hex(8) }]))),
      contentType: "application/json; charset=utf-8",
      contentEncoding: "gzip",
    });
    expect(ok.code).toBe("ok");

    expect((await receiveTraces(sam.ctx(), { body: Buffer.from("{}"), contentType: "text/plain", contentEncoding: undefined })).code).toBe(
      "unsupported_media_type",
    );
    expect((await receiveTraces(sam.ctx(), { body: Buffer.from("{}"), contentType: "application/json", contentEncoding: "br" })).code).toBe(
      "unsupported_media_type",
    );
    expect((await receiveTraces(sam.ctx(), { body: Buffer.from("not json"), contentType: "application/json", contentEncoding: undefined })).code).toBe(
      "validation_failed",
    );
    const empty = await receiveTraces(sam.ctx(), { body: Buffer.alloc(0), contentType: "application/x-protobuf", contentEncoding: undefined });
    expect(empty.code).toBe("ok");
  });

  it("lists runs newest first, paged, for the owners the caller acts for", async () => {
    const sam = await fx.world.user("sam");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await fx.world.cairn.invoke("run_create", sam.ctx(), { name: `batch 100%_${i}` })).id);
    const first = await fx.world.cairn.invoke("run_list", sam.ctx(), { limit: 2 });
    expect(first.items.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    const second = await fx.world.cairn.invoke("run_list", sam.ctx(), { limit: 2, cursor: first.next_cursor as string });
    expect(second).toEqual({
      items: [expect.objectContaining({ id: ids[0], span_count: 0, error_count: 0, trace_id: null, status: "open" })],
      next_cursor: null,
    });
    // `%` and `_` match themselves.
    expect((await fx.world.cairn.invoke("run_list", sam.ctx(), { q: "100%_1" })).items.map((r) => r.id)).toEqual([ids[1]]);
    expect((await fx.world.cairn.invoke("run_list", sam.ctx(), { q: "1%_" })).items).toEqual([]);
  });

  it("stores a resource once, however many spans name it, and reads it back on every span (issue 31)", async () => {
    const sam = await fx.world.user("sam");
    const traceId = hex(16);
    const long = Array.from({ length: 7 }, (_, i) => str(`pad.${i}`, `${i}`.repeat(15_000)));
    const spans = Array.from({ length: 1_000 }, () => ({ traceId, spanId: hex(8) }));
    const reply = await send(sam, request(spans, [str("service.name", "amplifier"), ...long]), "protobuf");
    expect(reply.result).toMatchObject({ stored: 1_000, rejected: 0 });
    const [summary] = await runsOf(sam, traceId);
    const [stored] = await fx.store.query<{ copies: number; span_text: number }>(
      `select (select count(*)::int from span_resources where owner = $2) as copies,
              (select sum(octet_length(attributes::text) + coalesce(octet_length(resource::text), 0))::int from spans where run_id = $1) as span_text`,
      [summary?.id, `user:${sam.name}`],
    );
    // One row of 105,000 characters, not 1,000 copies of it (105 MB before).
    expect(stored).toEqual({ copies: 1, span_text: 2_000 });
    const run = await readRun(sam, summary?.id as string);
    expect(run.spans).toHaveLength(1_000);
    for (const span of [run.spans[0], run.spans[999]]) expect(span?.resource).toMatchObject({ "service.name": "amplifier", "pad.6": "6".repeat(15_000) });
    // The same resource sent again is not stored again.
    await send(sam, request([{ traceId: hex(16), spanId: hex(8) }], [str("service.name", "amplifier"), ...long]));
    expect((await fx.store.query<{ n: number }>("select count(*)::int as n from span_resources where owner = $1", [`user:${sam.name}`]))[0]?.n).toBe(1);
  });

  it("bounds a request's stored text: spans past OTLP_LIMITS.requestText are refused and counted, the resource counted once", async () => {
    const sam = await fx.world.user("sam");
    const traceId = hex(16);
    const value = "v".repeat(16_000);
    const spans = Array.from({ length: 80 }, () => ({ traceId, spanId: hex(8), attributes: [str("big", value)] }));
    const reply = await send(sam, request(spans, [str("service.name", "svc"), str("pad", "r".repeat(16_000))]));
    const fits = Math.floor((OTLP_LIMITS.requestText - 16_000) / 16_000);
    expect(reply.result?.stored).toBeGreaterThanOrEqual(fits - 1);
    expect(reply.result?.stored).toBeLessThanOrEqual(fits);
    expect(reply.result?.rejected).toBe(80 - (reply.result?.stored ?? 0));
    expect(reply.result?.message).toContain(`refused: the request's stored text passed ${OTLP_LIMITS.requestText} characters`);
  });

  it("keeps the run's totals as spans arrive, once per span however often it is re-sent; the root's end ends the run (SPEC §28)", async () => {
    const sam = await fx.world.user("sam");
    const traceId = hex(16);
    const [root, chat1, chat2, tool] = [hex(8), hex(8), hex(8), hex(8)];
    const int = (key: string, n: number) => ({ key, value: { intValue: String(n) } });
    const at = (ms: number) => String(1764600000000000000n + BigInt(ms) * 1_000_000n);
    const children = [
      {
        traceId,
        spanId: chat1,
        parentSpanId: root,
        name: "chat a",
        startTimeUnixNano: at(100),
        endTimeUnixNano: at(900),
        attributes: [
          str("gen_ai.request.model", "opus-5"),
          int("gen_ai.usage.input_tokens", 100),
          int("gen_ai.usage.output_tokens", 10),
          str("gen_ai.conversation.id", "conv-1"),
        ],
      },
      {
        traceId,
        spanId: chat2,
        parentSpanId: root,
        name: "chat b",
        startTimeUnixNano: at(1_000),
        endTimeUnixNano: at(1_500),
        attributes: [
          str("gen_ai.request.model", "opus-5"),
          str("gen_ai.response.model", "opus-5-0601"),
          int("gen_ai.usage.input_tokens", 200),
          int("gen_ai.usage.output_tokens", 20),
        ],
      },
      {
        traceId,
        spanId: tool,
        parentSpanId: root,
        name: "execute_tool",
        startTimeUnixNano: at(1_600),
        endTimeUnixNano: at(1_700),
        status: { code: 2, message: "no" },
      },
    ];
    const totals = async () =>
      (
        await fx.store.query(
          `select span_count, error_count, input_tokens::int, output_tokens::int, models, first_start_at, last_end_at, ended_at, conversation_id
             from runs where owner = $1 and trace_id = $2`,
          [`user:${sam.name}`, traceId],
        )
      )[0];
    // Children first, twice (an exporter's retry): the run is open, nothing counted twice.
    for (let i = 0; i < 2; i++) await send(sam, { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans: children }] }] });
    expect(await totals()).toMatchObject({ span_count: 3, error_count: 1, input_tokens: 300, output_tokens: 30, ended_at: null, conversation_id: "conv-1" });
    const rootSpan = { traceId, spanId: root, name: "invoke_agent", startTimeUnixNano: at(0), endTimeUnixNano: at(2_000) };
    for (let i = 0; i < 2; i++)
      await send(sam, { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans: [rootSpan, ...children] }] }] }, "protobuf");
    const after = await totals();
    expect(after).toMatchObject({
      span_count: 4,
      error_count: 1,
      input_tokens: 300,
      output_tokens: 30,
      models: ["opus-5", "opus-5-0601"],
      conversation_id: "conv-1",
    });
    expect(new Date(after?.first_start_at as string).toISOString()).toBe("2025-12-01T14:40:00.000Z");
    expect(new Date(after?.last_end_at as string).toISOString()).toBe("2025-12-01T14:40:02.000Z");
    expect(new Date(after?.ended_at as string).toISOString()).toBe("2025-12-01T14:40:02.000Z");
  });

  it("writes a run it makes with the same totals as spans added to a run that was there (ADR 0073)", async () => {
    const sam = await fx.world.user("sam");
    const at = (ms: number) => String(1764600000000000000n + BigInt(ms) * 1_000_000n);
    const int = (key: string, n: number) => ({ key, value: { intValue: String(n) } });
    // Edge values for every total: models and conversations whose order depends on the
    // collation, token counts as text, too long, or not whole, two roots (one unended),
    // errors, and spans out of time order.
    const spansOf = (traceId: string) => {
      const [rootA, rootB, c1, c2, c3] = [hex(8), hex(8), hex(8), hex(8), hex(8)];
      return [
        {
          traceId,
          spanId: c1,
          parentSpanId: rootA,
          name: "c1",
          startTimeUnixNano: at(500),
          endTimeUnixNano: at(4_000),
          attributes: [
            str("gen_ai.request.model", "opus-5"),
            str("gen_ai.response.model", "Opus-5"),
            int("gen_ai.usage.input_tokens", 120),
            str("gen_ai.usage.output_tokens", "42"),
            str("gen_ai.conversation.id", "conv-b"),
          ],
          status: { code: 2 },
        },
        {
          traceId,
          spanId: c2,
          parentSpanId: rootA,
          name: "c2",
          startTimeUnixNano: at(50),
          endTimeUnixNano: at(60),
          attributes: [
            str("gen_ai.request.model", "a_b"),
            str("gen_ai.response.model", "é-model"),
            str("gen_ai.usage.input_tokens", "1e3"),
            str("gen_ai.usage.output_tokens", "1234567890123456"),
            str("session.id", "Conv-A"),
          ],
        },
        {
          traceId,
          spanId: c3,
          parentSpanId: rootB,
          name: "c3",
          startTimeUnixNano: at(700),
          attributes: [str("gen_ai.request.model", "Z"), int("gen_ai.usage.input_tokens", 999_999_999_999_999), str("gen_ai.response.model", "")],
          status: { code: 2 },
        },
        { traceId, spanId: rootA, name: "root a", startTimeUnixNano: at(100), endTimeUnixNano: at(3_000) },
        { traceId, spanId: rootB, name: "root b", startTimeUnixNano: at(10), attributes: [str("gen_ai.conversation.id", "conv-c")] },
      ];
    };
    const totalsOf = async (traceId: string) =>
      (
        await fx.store.query(
          `select span_count, error_count, input_tokens::text, output_tokens::text, models, first_start_at, last_end_at, ended_at, conversation_id
             from runs where owner = $1 and trace_id = $2`,
          [`user:${sam.name}`, traceId],
        )
      )[0];
    const made = hex(16);
    const there = hex(16);
    // The run of `there` is on file before its spans arrive, so they are added to it.
    await fx.store.query("insert into runs (id, owner, name, provenance, created_at, trace_id) values ($1, $2, 'waiting', '{}', now(), $3)", [
      `run_there_${there}`,
      `user:${sam.name}`,
      there,
    ]);
    for (const traceId of [made, there]) {
      const reply = await send(sam, { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans: spansOf(traceId) }] }] });
      expect(reply.result).toMatchObject({ stored: 5, rejected: 0 });
    }
    const expected = await totalsOf(there);
    expect(expected).toMatchObject({
      span_count: 5,
      error_count: 2,
      input_tokens: "1000000000000119",
      output_tokens: "42",
      conversation_id: expect.any(String),
    });
    expect(expected?.models).toHaveLength(5);
    expect(await totalsOf(made)).toEqual(expected);
  });

  it("keeps the totals on run_append_spans too, and a re-sent batch adds nothing", async () => {
    const sam = await fx.world.user("sam");
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "appended" });
    const spans = [
      {
        span_id: "a",
        name: "chat",
        start_time: "2026-01-01T00:00:00Z",
        end_time: "2026-01-01T00:00:01Z",
        attributes: { "gen_ai.usage.input_tokens": 7, "gen_ai.usage.output_tokens": 3, "gen_ai.response.model": "m1", "session.id": "s-9" },
      },
      { span_id: "b", parent_span_id: "a", name: "tool", start_time: "2026-01-01T00:00:00.500Z" },
    ];
    for (let i = 0; i < 2; i++) await fx.world.cairn.invoke("run_append_spans", sam.ctx(), { run_id: run.id, spans });
    const [row] = await fx.store.query(
      "select span_count, error_count, input_tokens::int, output_tokens::int, models, ended_at, conversation_id from runs where id = $1",
      [run.id],
    );
    expect(row).toMatchObject({ span_count: 2, error_count: 0, input_tokens: 7, output_tokens: 3, models: ["m1"], conversation_id: "s-9" });
    expect(new Date(row?.ended_at as string).toISOString()).toBe("2026-01-01T00:00:01.000Z");
  });

  it("meets concurrent exports of one trace in one run: each span stored once and counted once, whichever export got it", async () => {
    const sam = await fx.world.user("sam");
    const traceId = hex(16);
    const spanIds = Array.from({ length: 12 }, () => hex(8));
    // Six exports at once, each a window of eight spans that overlaps its neighbours'.
    const windows = Array.from({ length: 6 }, (_, i) => spanIds.slice(i, Math.min(i + 8, 12)));
    const replies = await Promise.all(windows.map((ids) => send(sam, request(ids.map((spanId) => ({ traceId, spanId }))))));
    for (const reply of replies) expect(reply.code).toBe("ok");
    const results = replies.map((r) => r.result as { stored: number; unchanged: number; rejected: number });
    expect(results.reduce((n, r) => n + r.stored, 0)).toBe(12);
    expect(results.reduce((n, r) => n + r.stored + r.unchanged, 0)).toBe(windows.reduce((n, w) => n + w.length, 0));
    expect(results.every((r) => r.rejected === 0)).toBe(true);
    const runs = await runsOf(sam, traceId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ span_count: 12 });
    const run = await readRun(sam, runs[0]?.id as string);
    expect(run.spans.map((s) => s.span_id).sort()).toEqual([...spanIds].sort());
  });

  it("starts a new run for spans of a trace whose run was deleted", async () => {
    const sam = await fx.world.user("sam");
    const traceId = hex(16);
    await send(sam, request([{ traceId, spanId: hex(8) }]));
    const [first] = await runsOf(sam, traceId);
    // As DELETE /v1/runs/:id or expiry removes it.
    await fx.store.query("delete from runs where id = $1", [first?.id]);
    const again = await send(sam, request([{ traceId, spanId: hex(8) }]));
    expect(again.result).toMatchObject({ stored: 1, rejected: 0 });
    const [second] = await runsOf(sam, traceId);
    expect(second?.id).not.toBe(first?.id);
    expect(second?.span_count).toBe(1);
  });

  it("parses cairn.owner by the rule of every owner field: a malformed one refuses its spans, never names a run", async () => {
    const sam = await fx.world.user("sam");
    const team = await fx.world.team([sam]);
    const name = team.slice("team:".length);
    for (const owner of [` ${team}`, `Team:${name}`, `${team}:x`, `\uff54eam:${name}`, `${team} `]) {
      const traceId = hex(16);
      const reply = await send(sam, request([{ traceId, spanId: hex(8) }], [str("cairn.owner", owner)]));
      expect(reply.result).toMatchObject({ stored: 0, rejected: 1 });
      expect(reply.result?.message).toContain("cairn.owner must be user:NAME or team:NAME");
      expect(await fx.store.query("select owner from runs where trace_id = $1", [traceId])).toEqual([]);
    }
  });

  it("scans a bytesValue as the text it spells: the base64 of a token is redacted", async () => {
    const sam = await fx.world.user("sam");
    const secret = ["ghp_", "A1b2C3d4E5f6G7h8I9j0", "K1l2M3n4O5p6Q7r8"].join("");
    const traceId = hex(16);
    const reply = await send(
      sam,
      request(
        [
          {
            traceId,
            spanId: hex(8),
            attributes: [
              { key: "blob", value: { bytesValue: Buffer.from(`token=${secret}`).toString("base64") } },
              { key: "ok", value: { bytesValue: "AQI=" } },
            ],
          },
        ],
        [str("service.name", "svc"), { key: "rb", value: { bytesValue: Buffer.from(secret).toString("base64") } }],
      ),
    );
    expect(reply.result).toMatchObject({ stored: 1, rejected: 0 });
    expect(reply.result?.message).toContain("held a secret and were redacted");
    const run = await readRun(sam, (await runsOf(sam, traceId))[0]?.id as string);
    const text = JSON.stringify(run);
    expect(text).not.toContain(Buffer.from(`token=${secret}`).toString("base64"));
    expect(text).not.toContain(Buffer.from(secret).toString("base64"));
    expect(run.spans[0]?.attributes).toMatchObject({ blob: expect.stringMatching(/^\[REDACTED:/), ok: "AQI=" });
    expect(run.spans[0]?.resource).toMatchObject({ rb: expect.stringMatching(/^\[REDACTED:/) });
  });

  it("cuts values nested past the documented depth instead of refusing the export (60 levels, both encodings); a __proto__ key keeps its value", async () => {
    const sam = await fx.world.user("sam");
    let deep: unknown = { stringValue: "bottom" };
    for (let i = 0; i < 60; i++) deep = i % 2 ? { kvlistValue: { values: [{ key: "k", value: deep }] } } : { arrayValue: { values: [deep] } };
    for (const encoding of ["json", "protobuf"] as const) {
      const traceId = hex(16);
      const reply = await send(
        sam,
        request([
          {
            traceId,
            spanId: hex(8),
            attributes: [
              { key: "deep", value: deep },
              str("__proto__", "kept"),
              { key: "obj", value: { kvlistValue: { values: [str("__proto__", "inner")] } } },
            ],
          },
        ]),
        encoding,
      );
      expect(reply.code).toBe("ok");
      expect(reply.result).toMatchObject({ stored: 1, rejected: 0 });
      expect(reply.result?.message).toContain(`values nested deeper than ${OTLP_LIMITS.depth} levels were dropped`);
      const span = (await readRun(sam, (await runsOf(sam, traceId))[0]?.id as string)).spans[0];
      expect(span?.attributes.deep).toEqual({ k: [{ k: [{ k: [{ k: [null] }] }] }] });
      expect(Object.getOwnPropertyDescriptor(span?.attributes, "__proto__")?.value).toBe("kept");
      expect(Object.getOwnPropertyDescriptor(span?.attributes.obj, "__proto__")?.value).toBe("inner");
    }
  });

  it("stores what cannot be stored as it is (NUL, a lone surrogate, a pair cut at the limit) as replaced text, never a failed export", async () => {
    const sam = await fx.world.user("sam");
    const traceId = hex(16);
    const long = `${"x".repeat(OTLP_LIMITS.attributeValue - 2)}😀😀`;
    for (const encoding of ["json", "protobuf"] as const) {
      const reply = await send(
        sam,
        request([
          // A lone surrogate has no UTF-8 form, so only OTLP/JSON can carry one (protobuf bytes that hold it are refused as invalid, 400).
          {
            traceId,
            spanId: hex(8),
            name: `nul\u0000name${encoding === "json" ? " \ud800" : ""}`,
            attributes: [str("k\u0000ey", `v\u0000al${encoding === "json" ? " \udc00" : ""}`), str("long", long)],
          },
        ]),
        encoding,
      );
      expect([reply.code, reply.result?.rejected]).toEqual(["ok", 0]);
    }
    const [run] = await runsOf(sam, traceId);
    const spans = (await readRun(sam, run?.id as string)).spans;
    expect(spans).toHaveLength(2);
    for (const span of spans) expect(JSON.stringify(span)).not.toMatch(/\\u0000|\\ud[89a-f][0-9a-f]{2}/);
  });
});
