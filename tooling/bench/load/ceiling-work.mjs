// The same-work ceilings (SPEC §38): a bare hono server, its own process, written without any of
// Cairn's code paths but writing into Cairn's own migrated schema, so every index, the search
// vector's GIN and the foreign keys cost what they cost Cairn. What it leaves out is Cairn's own
// work per request: authentication, validation, the secret scan, rendering, idempotency, gates.
//
//   POST /v1/receipts  (create-work) the receipt row with its search vector, its artifact.created
//                      event and the event's fan-out row, in one statement; concurrent requests
//                      share a statement of up to 8 rows (group commit, as Cairn's writes do).
//   POST /v1/traces    (traces-work) the OTLP request decoded with the same .proto files, its
//                      run and its spans inserted in one statement per request.
//
// argv: pg <databaseUrl> | pglite <dataDir>
import { createHash, randomBytes } from "node:crypto";
import { openStore } from "@cairn/core";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { otlpTypes } from "./otlp-body.mjs";

const [driver, where] = process.argv.slice(2);
const store = await openStore(driver === "pg" ? { databaseUrl: where } : { dataDir: where });
const OWNER = "user:bench";
const GROUP = 8;
const id = (prefix) => `${prefix}_${randomBytes(12).toString("hex")}`;

/** The receipt's own words (every string it holds), as a receipt's search text is made of its answers. */
function wordsOf(value, out = []) {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) wordsOf(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) wordsOf(v, out);
  return out;
}

function receiptRow(receipt) {
  const now = new Date();
  // The body stands in for the rendered markdown: the same words, of about the same size.
  const body = JSON.stringify(receipt, null, 1);
  return {
    id: id("art"),
    event_id: id("evt"),
    owner: OWNER,
    title: String(receipt.changed ?? "untitled"),
    body,
    checksum: `sha256:${createHash("sha256").update(body).digest("hex")}`,
    metadata: JSON.stringify({ schema: "cairn.receipt/v1", ...receipt }),
    provenance: JSON.stringify({ actor: { id: "tok_bench", name: "bench" }, surface: "rest" }),
    share_token: randomBytes(16).toString("base64url"),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
    search_text: wordsOf(receipt).join(" "),
  };
}

// One statement writes a group: the artifacts, their events and the events' fan-out rows. It is a
// plpgsql function of the ceiling's own, so its plans are kept for the connection, as they are for
// Cairn's functions; a plain statement would be parsed and planned again on every call.
await store.query(`
create or replace function bench_write_receipts(g jsonb) returns setof json language plpgsql as $$
begin
  return query
  with r as (select * from jsonb_to_recordset(g) as x(id text, event_id text, owner text, title text, body text,
               checksum text, metadata text, provenance text, share_token text, created_at timestamptz,
               expires_at timestamptz, search_text text)),
       a as (insert into artifacts (id, owner, title, share_type, body, checksum, tags, metadata, provenance, share_token,
                                    created_at, expires_at, search)
             select r.id, r.owner, r.title, 'receipt', r.body, r.checksum, '["receipt"]'::jsonb, r.metadata::json,
                    r.provenance::json, r.share_token, r.created_at, r.expires_at, to_tsvector('english'::regconfig, r.search_text)
               from r
             returning artifacts.id, artifacts.owner, artifacts.title, artifacts.checksum, artifacts.share_token,
                       artifacts.created_at, artifacts.expires_at),
       e as (insert into events (id, type, owner, payload, created_at)
             select r.event_id, 'artifact.created', r.owner, json_build_object('id', r.id, 'title', r.title)::text, r.created_at
               from r
             returning events.id),
       f as (insert into fanout_queue (event_id) select e.id from e)
  select row_to_json(a) from a;
end
$$`);
const WRITE_RECEIPTS = "select bench_write_receipts($1::jsonb) as row";

// Group commit: a request that finds a statement in flight waits for the next one, up to 8 rows each.
const waiting = [];
let inFlight = false;
async function flush() {
  if (inFlight || waiting.length === 0) return;
  inFlight = true;
  const group = waiting.splice(0, GROUP);
  try {
    const rows = await store.query(WRITE_RECEIPTS, [JSON.stringify(group.map((g) => g.row))]);
    const byId = new Map(rows.map(({ row }) => [row.id, row]));
    for (const g of group) g.resolve(byId.get(g.row.id));
  } catch (err) {
    for (const g of group) g.reject(err);
  } finally {
    inFlight = false;
    void flush();
  }
}
const writeReceipt = (row) =>
  new Promise((resolve, reject) => {
    waiting.push({ row, resolve, reject });
    void flush();
  });

const types = otlpTypes();
const empty = types.response.encode(types.response.fromObject({})).finish();
const hex = (bytes) => Buffer.from(bytes).toString("hex");
const instant = (nanos) => new Date(Number(BigInt(String(nanos)) / 1_000_000n)).toISOString();

// One statement per request: the trace's run, then its spans.
const WRITE_SPANS = `
with run as (insert into runs (id, owner, name, provenance, created_at, trace_id, expires_at)
             values ($1, $2, $3, '{"surface":"otlp"}'::json, now(), $4, now() + interval '30 days') returning id)
insert into spans (run_id, span_id, parent_span_id, name, start_time, end_time, attributes, appended_at, status)
select (select id from run), s.span_id, s.parent_span_id, s.name, s.start_time, s.end_time, s.attributes::json, now(), s.status::json
  from jsonb_to_recordset($5::jsonb) as s(span_id text, parent_span_id text, name text, start_time timestamptz,
                                          end_time timestamptz, attributes text, status text)`;

const app = new Hono()
  .post("/v1/receipts", async (c) => {
    const row = await writeReceipt(receiptRow(await c.req.json()));
    return c.json(row, 201);
  })
  .post("/v1/traces", async (c) => {
    const request = types.request.decode(new Uint8Array(await c.req.arrayBuffer()));
    const spans = [];
    let traceId = null;
    for (const rs of request.resourceSpans)
      for (const ss of rs.scopeSpans)
        for (const s of ss.spans) {
          traceId ??= hex(s.traceId);
          const attributes = {};
          for (const a of s.attributes) attributes[a.key] = a.value?.stringValue ?? a.value?.intValue?.toString() ?? null;
          spans.push({
            span_id: hex(s.spanId),
            parent_span_id: s.parentSpanId?.length ? hex(s.parentSpanId) : null,
            name: s.name,
            start_time: instant(s.startTimeUnixNano),
            end_time: instant(s.endTimeUnixNano),
            attributes: JSON.stringify(attributes),
            status: JSON.stringify({ code: s.status?.code ?? 0 }),
          });
        }
    if (spans.length > 0) await store.query(WRITE_SPANS, [id("run"), OWNER, spans[0].name, traceId, JSON.stringify(spans)]);
    return c.body(empty, 200, { "content-type": "application/x-protobuf", "x-spans": String(spans.length) });
  });

const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => console.log(`listening on http://127.0.0.1:${info.port}`));
process.on("SIGTERM", () => server.close(() => store.close().then(() => process.exit(0))));
