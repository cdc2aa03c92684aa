import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DRIVERS, minimalReceipt, runNode } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpClient } from "./mcp-harness.js";
import { homeFor, type ServeProcess, spawnServe } from "./serve-process.js";

/**
 * SPEC §21 end to end: the stock OpenTelemetry JS SDK and its two OTLP/HTTP exporters
 * (protobuf, and JSON) in an agent process of their own (otel-agent.mjs), sending to a
 * real `cairn serve` process, on each store.
 */

const AGENT = join(import.meta.dirname, "otel-agent.mjs");

interface AgentRun {
  traceId: string;
  rootSpanId: string;
  /** The exporter's result code per batch: 0 is success. */
  results: number[];
}

type Batch = Array<"all" | "root" | "children">;

interface AgentOptions {
  exporter: "proto" | "json";
  gzip?: boolean;
  agent: string;
  service?: string;
  /** Export batches in order; the same batch twice is an exporter's retry. Default: everything once. */
  batches?: Batch[];
}

// Assembled at run time so no scanner flags this file; shaped like a GitHub token, never a live one.
const PLANTED_TOKEN = ["ghp_", "A1b2C3d4E5f6G7h8I9j0", "K1l2M3n4O5p6Q7r8"].join("");

/**
 * The bombs, built once when the file loads, before any server or connection exists.
 * Built inside a test, the synchronous 256 MiB deflate held this process's event loop for
 * seconds, past fetch's keep-alive expiry of the pooled connection, and the next POST went
 * out on a socket the server was closing ("other side closed").
 */
const BOMBS = {
  small: gzipSync(Buffer.alloc(5 * 1024 * 1024)),
  big: gzipSync(Buffer.alloc(256 * 1024 * 1024), { level: 9 }),
};

/** Resident set of a process, from /proc (kB → bytes). */
function rssOf(pid: number): number {
  const line =
    readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("VmRSS:")) ?? "";
  return Number(line.replace(/\D+/g, "")) * 1024;
}

describe.each(DRIVERS)("OTLP/HTTP traces into a real cairn serve on %s", (driver) => {
  let serve: ServeProcess;
  let dispose: () => Promise<void>;
  let sam: string;
  let dana: string;
  const call = async (token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${serve.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { "content-type": "application/json" }), ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: text.startsWith("{") ? JSON.parse(text) : undefined };
  };
  const agent = async (token: string, options: AgentOptions & { traceId?: string }): Promise<AgentRun> => {
    const ran = await runNode([AGENT, JSON.stringify({ url: serve.url, token, service: "travel-service", ...options })], {
      env: process.env,
      cwd: import.meta.dirname,
    });
    if (ran.code !== 0) throw new Error(`the agent failed (${ran.code}): ${ran.stderr}`);
    return JSON.parse(ran.stdout) as AgentRun;
  };
  const runOf = async (token: string, traceId: string) => {
    const list = await call(token, "GET", `/v1/runs?q=${traceId}`);
    expect(list.status).toBe(200);
    return list.json.items as Array<{ id: string; name: string; span_count: number; error_count: number; trace_id: string }>;
  };

  beforeAll(async () => {
    const home = await homeFor(driver);
    dispose = home.dispose;
    serve = await spawnServe(home.env);
    const admin = JSON.parse(readFileSync(join(home.home, "credentials"), "utf8")).token as string;
    const user = async (name: string) => (await call(admin, "POST", "/v1/users", { name: `${name}-${process.pid}` })).json.token.token as string;
    sam = await user("sam");
    dana = await user("dana");
  });
  afterAll(async () => {
    await serve?.stop();
    await dispose?.();
  });

  it("turns the protobuf exporter's agent trace into one run with its agent's name, three spans and their attributes; a re-export stores nothing twice", async () => {
    const t = await agent(sam, { exporter: "proto", agent: "travel-planner", batches: [["all"], ["all"]] });
    expect(t.results).toEqual([0, 0]);

    const runs = await runOf(sam, t.traceId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ name: "travel-planner", trace_id: t.traceId, span_count: 3, error_count: 1 });
    const run = (await call(sam, "GET", `/v1/runs/${runs[0]?.id}`)).json;
    expect(run.spans).toHaveLength(3);
    const root = run.spans.find((s: any) => s.parent_span_id === null);
    expect(root).toMatchObject({
      span_id: t.rootSpanId,
      name: "invoke_agent travel-planner",
      attributes: { "gen_ai.agent.name": "travel-planner", "gen_ai.operation.name": "invoke_agent", "gen_ai.usage.input_tokens": 1234 },
      resource: { "service.name": "travel-service", "service.version": "1.4.2" },
      status: { code: "unset", message: null },
    });
    const hotel = run.spans.find((s: any) => s.name === "execute_tool book_hotel");
    expect(hotel).toMatchObject({
      parent_span_id: t.rootSpanId,
      attributes: { "gen_ai.tool.name": "book_hotel", "gen_ai.tool.call.arguments": ["LHR", "JFK"] },
      status: { code: "error", message: "no rooms left <b>tonight</b>" },
    });
    // Nobody else sees the run, or finds it by its trace id.
    expect(await runOf(dana, t.traceId)).toEqual([]);
    expect((await call(dana, "GET", `/v1/runs/${run.id}`)).status).toBe(404);
  });

  it("takes the JSON exporter's export, gzip-compressed, into the same kind of run", async () => {
    const t = await agent(sam, { exporter: "json", gzip: true, agent: "json-agent", batches: [["all"], ["all"]] });
    expect(t.results).toEqual([0, 0]);
    const [run] = await runOf(sam, t.traceId);
    expect(run).toMatchObject({ name: "json-agent", span_count: 3, error_count: 1 });
  });

  it("joins spans sent in separate requests into one run, named by the root when it arrives", async () => {
    const t = await agent(sam, { exporter: "proto", agent: "late-root", service: "late-service", batches: [["children"]] });
    expect(t.results).toEqual([0]);
    expect((await runOf(sam, t.traceId))[0]).toMatchObject({ name: "late-service", span_count: 2 });
    // The same trace again, root and all (the children are a retry): the root names the run.
    const again = await agent(sam, { exporter: "proto", agent: "late-root", traceId: t.traceId, batches: [["root"]] });
    expect(again.results).toEqual([0]);
    expect(await runOf(sam, t.traceId)).toMatchObject([{ name: "late-root", span_count: 3 }]);
  });

  it("refuses a gzip bomb with 413 before inflating it, and the server's memory does not jump", async () => {
    const { small, big } = BOMBS;
    expect(small.byteLength).toBeLessThan(8 * 1024);
    const pid = serve.child.pid as number;
    const before = rssOf(pid);
    for (const [body, type] of [
      [small, "application/x-protobuf"],
      [big, "application/x-protobuf"],
      [big, "application/json"],
    ] as const) {
      const res = await fetch(`${serve.url}/v1/traces`, {
        method: "POST",
        headers: { authorization: `Bearer ${sam}`, "content-type": type, "content-encoding": "gzip" },
        body,
      });
      expect(res.status).toBe(413);
      expect(res.headers.get("content-type")).toBe(type);
      await res.arrayBuffer();
    }
    const after = rssOf(pid);
    // Inflating the big one whole would add 256 MiB; the bounded inflate holds at most 4 MiB at a time.
    expect(after - before).toBeLessThan(48 * 1024 * 1024);
    console.info(`gzip bomb (${small.byteLength} B → 5 MiB; ${big.byteLength} B → 256 MiB): server RSS ${before} → ${after} bytes`);
  });

  it("answers bad requests as OTLP/HTTP does: 400 with a Status, 415 for another type, partialSuccess for refused spans", async () => {
    const bad = await call(sam, "POST", "/v1/traces", { resourceSpans: "many" });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 3, error: { code: "validation_failed" } });
    expect(bad.json.message).toContain("resourceSpans: array expected");
    const notProto = await fetch(`${serve.url}/v1/traces`, {
      method: "POST",
      headers: { authorization: `Bearer ${sam}`, "content-type": "application/x-protobuf" },
      body: Buffer.from([0xff, 0xff, 0xff, 0xff]),
    });
    expect(notProto.status).toBe(400);
    expect(notProto.headers.get("content-type")).toBe("application/x-protobuf");
    expect((await call(sam, "POST", "/v1/traces", undefined, { "content-type": "text/plain" })).status).toBe(415);

    const traceId = "5b8efff798038103d269b633813fc60c";
    const partial = await call(sam, "POST", "/v1/traces", {
      resourceSpans: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "hand-written" } }] },
          scopeSpans: [
            {
              spans: [
                {
                  traceId,
                  spanId: "eee19b7ec3c1b174",
                  name: "ok",
                  startTimeUnixNano: "1764600000000000000",
                  endTimeUnixNano: "1764600001000000000",
                  kind: 1,
                  attributes: [
                    { key: "n", value: { intValue: "42" } },
                    { key: "kv", value: { kvlistValue: { values: [{ key: "a", value: { boolValue: true } }] } } },
                  ],
                },
                { traceId, spanId: "not-hex", name: "bad id", startTimeUnixNano: "1764600000000000000" },
                { traceId, spanId: "eee19b7ec3c1b175", name: "no start" },
              ],
            },
          ],
        },
      ],
    });
    expect(partial.status).toBe(200);
    expect(partial.json.partialSuccess.rejectedSpans).toBe("2");
    expect(partial.json.partialSuccess.errorMessage).toContain("spanId is not 8 bytes");
    const [run] = await runOf(sam, traceId);
    expect(run).toMatchObject({ name: "hand-written", span_count: 1 });
    const stored = (await call(sam, "GET", `/v1/runs/${run?.id}`)).json.spans[0];
    expect(stored).toMatchObject({ attributes: { n: 42, kv: { a: true } }, start_time: "2025-12-01T14:40:00.000Z", end_time: "2025-12-01T14:40:01.000Z" });
    // No token: 401, as on the rest of /v1.
    expect((await fetch(`${serve.url}/v1/traces`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(401);
  });

  it("redacts a secret in an attribute value, and links a span to the receipt it names in cairn.artifact.id", async () => {
    const receipt = await call(sam, "POST", "/v1/receipts", minimalReceipt({ learned: "linked by attribute" }));
    expect(receipt.status).toBe(201);
    const traceId = "6c8efff798038103d269b633813fc60d";
    const sent = await call(sam, "POST", "/v1/traces", {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId,
                  spanId: "aaa19b7ec3c1b174",
                  name: "write receipt",
                  startTimeUnixNano: "1764600000000000000",
                  attributes: [
                    { key: "cairn.artifact.id", value: { stringValue: receipt.json.id } },
                    { key: "http.request.header.authorization", value: { stringValue: `token ${PLANTED_TOKEN}` } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    expect(sent.status).toBe(200);
    // Nothing refused: proto3 JSON leaves a zero out.
    expect(sent.json.partialSuccess.rejectedSpans).toBeUndefined();
    expect(sent.json.partialSuccess.errorMessage).toContain("redacted");
    const [run] = await runOf(sam, traceId);
    const span = (await call(sam, "GET", `/v1/runs/${run?.id}`)).json.spans[0];
    expect(span.produced_artifact_id).toBe(receipt.json.id);
    expect(JSON.stringify(span)).not.toContain(PLANTED_TOKEN);
    expect(span.attributes["http.request.header.authorization"]).toContain("[REDACTED:");
    expect((await call(sam, "GET", `/v1/artifacts/${receipt.json.id}`)).json.produced_by).toEqual([{ id: run?.id, name: "write receipt" }]);
  });

  it("links a receipt posted with the trace's traceparent to its owner's run: the card says Produced by run, to its owner only", async () => {
    const t = await agent(sam, { exporter: "proto", agent: "receipt-writer" });
    const [run] = await runOf(sam, t.traceId);
    const traceparent = `00-${t.traceId}-${t.rootSpanId}-01`;

    const mine = await call(sam, "POST", "/v1/receipts", minimalReceipt({ learned: "traced receipt" }), { traceparent });
    expect(mine.status).toBe(201);
    expect(mine.json.produced_by).toEqual([{ id: run?.id, name: "receipt-writer" }]);
    expect((await call(sam, "GET", `/v1/artifacts/${mine.json.id}`)).json.produced_by).toEqual([{ id: run?.id, name: "receipt-writer" }]);

    // Another user naming the same trace gets no link: the run is not theirs.
    const theirs = await call(dana, "POST", "/v1/receipts", minimalReceipt({ learned: "someone else's trace" }), { traceparent });
    expect(theirs.status).toBe(201);
    expect(theirs.json.produced_by).toEqual([]);

    // The web card: the owner sees the run; a share link's reader does not.
    const page = await signedInPage(serve.url, sam, `/a/${mine.json.id}`);
    expect(page).toContain("Produced by");
    expect(page).toContain(`href="/runs/${run?.id}"`);
    const shared = await (await fetch(mine.json.url)).text();
    expect(shared).toContain("traced receipt");
    expect(shared).not.toContain(run?.id as string);
    const danaPage = await signedInPage(serve.url, dana, `/a/${theirs.json.id}`);
    expect(danaPage).not.toContain("Produced by");
    // The run lists the receipt under the span its traceparent named; dana's is not the run owner's.
    expect((await call(sam, "GET", `/v1/runs/${run?.id}`)).json.traced_artifacts).toEqual([{ artifact_id: mine.json.id, parent_span_id: t.rootSpanId }]);
    const runPage = await signedInPage(serve.url, sam, `/runs/${run?.id}`);
    expect(runPage).toContain(`<a href="/a/${mine.json.id}">`);
    expect(runPage).not.toContain(theirs.json.id);

    // A receipt that comes before its trace's spans is linked once they arrive.
    const earlyTrace = "0af7651916cd43dd8448eb211c80319c";
    const first = await call(sam, "POST", "/v1/receipts", minimalReceipt({ learned: "receipt first" }), {
      traceparent: `00-${earlyTrace}-b7ad6b7169203331-01`,
    });
    expect(first.json.produced_by).toEqual([]);
    const early = await agent(sam, { exporter: "json", agent: "early-receipt", traceId: earlyTrace });
    expect(early.traceId).toBe(earlyTrace);
    const [earlyRun] = await runOf(sam, early.traceId);
    expect((await call(sam, "GET", `/v1/artifacts/${first.json.id}`)).json.produced_by).toEqual([{ id: earlyRun?.id, name: "early-receipt" }]);

    // An invalid traceparent is ignored, as W3C Trace Context asks; the receipt is stored.
    const ignored = await call(sam, "POST", "/v1/receipts", minimalReceipt({ learned: "bad header" }), { traceparent: "00-xyz-01" });
    expect(ignored.status).toBe(201);
    expect(ignored.json.produced_by).toEqual([]);
  });

  it("over MCP: _meta.traceparent links a receipt, run_list lists runs, and a run is a resource only its owner can read", async () => {
    const t = await agent(sam, { exporter: "proto", agent: "mcp-agent" });
    const [run] = await runOf(sam, t.traceId);
    const client = await httpClient(serve.url, sam);
    try {
      const created: any = await client.callTool({
        name: "receipt_create",
        arguments: minimalReceipt({ learned: "from an mcp call", evidence: [{ label: "the trace", url: `mcp://cairn/runs/${run?.id}` }] }),
        _meta: { traceparent: `00-${t.traceId}-${t.rootSpanId}-01` },
      });
      expect(created.isError).toBeFalsy();
      expect(created.structuredContent.produced_by).toEqual([{ id: run?.id, name: "mcp-agent" }]);
      expect(created.structuredContent.metadata.evidence[0].url).toBe(`mcp://cairn/runs/${run?.id}`);
      // On the web card the link reads as given, and opens the run page beside it.
      const card = await signedInPage(serve.url, sam, `/a/${created.structuredContent.id}`);
      expect(card).toContain(`href="mcp://cairn/runs/${run?.id}"`);
      expect(card).toContain(`<a href="/runs/${run?.id}">open the run</a>`);

      const listed: any = await client.callTool({ name: "run_list", arguments: { q: "mcp-agent" } });
      expect(listed.structuredContent.items.map((r: any) => r.id)).toEqual([run?.id]);

      const read = await client.readResource({ uri: `mcp://cairn/runs/${run?.id}` });
      expect(read.contents[0]?.mimeType).toBe("application/json");
      const body = JSON.parse((read.contents[0] as { text: string }).text);
      expect(body).toMatchObject({ id: run?.id, name: "mcp-agent", trace_id: t.traceId });
      expect(body.spans).toHaveLength(3);

      const templates = await client.listResourceTemplates();
      expect(templates.resourceTemplates.map((r) => r.uriTemplate)).toContain("mcp://cairn/runs/{id}");
    } finally {
      await client.close();
    }
    const other = await httpClient(serve.url, dana);
    try {
      await expect(other.readResource({ uri: `mcp://cairn/runs/${run?.id}` })).rejects.toThrow(/-32602.*No run with that id is visible to you/);
      const refused: any = await other.callTool({
        name: "receipt_create",
        arguments: minimalReceipt({ evidence: [{ label: "trace", url: "mcp://cairn/traces/abc" }] }),
      });
      const error = JSON.parse(refused.content[0].text).error;
      expect(error.issues).toEqual([
        { field: "evidence.0.url", reason: "must name an artifact or a run: mcp://cairn/artifacts/<id> or mcp://cairn/runs/<run id>" },
      ]);
      expect(error.drop.category).toBe("invalid");
    } finally {
      await other.close();
    }
  });
});

/** A page as a signed-in person sees it: through the real sign-in form, with the session cookie. */
async function signedInPage(base: string, token: string, path: string): Promise<string> {
  const form = await fetch(`${base}/signin`);
  const cookies = form.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const csrf = (await form.text()).match(/name="csrf" value="([^"]+)"/)?.[1] ?? "";
  const signed = await fetch(`${base}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies },
    body: new URLSearchParams({ token, csrf, next: "/" }).toString(),
  });
  expect(signed.status).toBe(303);
  const session = signed.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const page = await fetch(`${base}${path}`, { headers: { cookie: session } });
  expect(page.status).toBe(200);
  return page.text();
}
