// Not a bench row: where one receipt's time goes, step by step, in one process, one at a time
// (no concurrency: latencies, not throughput). For reading next to `pnpm bench`'s create row.
// node tooling/bench/write-cost.mjs [pglite|pg]   (after pnpm build)

import { createTestWorld, fullReceipt, openTestStore } from "@cairn/core/testing";
import { EVENT_DATA } from "../../packages/core/dist/events/schemas.js";
import { renderValidReceipt } from "../../packages/core/dist/receipt/prepare.js";
import { redactReceipt } from "../../packages/core/dist/receipt/redact.js";
import { validateReceiptInput } from "../../packages/core/dist/receipt/validate.js";
import { preloadSecretScanner } from "../../packages/core/dist/secrets/secretlint.js";

const driver = process.argv[2] ?? "pglite";
const N = 400;
const time = async (label, fn, n = N) => {
  for (let i = 0; i < Math.min(50, n); i++) await fn(1e6 + i);
  const started = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  console.log(`${label.padEnd(52)} ${(((performance.now() - started) / n) * 1000).toFixed(0).padStart(6)} µs`);
};

console.log(`# gates and rendering (no database)`);
await preloadSecretScanner();
const raw = fullReceipt();
const valid = validateReceiptInput(raw).value;
const prepared = renderValidReceipt(valid);
await time("validate (schema → shape → links → thinness)", () => validateReceiptInput(raw), 2000);
await time("secrets scan (secretlint, one window)", () => redactReceipt(valid, { entropy: false }), 500);
await time("render + checksum", () => renderValidReceipt(valid), 2000);
const data = {
  id: "art_x",
  title: "t",
  url: "http://x/s/abc",
  share_type: "markdown",
  tags: ["a"],
  owner: "user:x",
  provenance: { actor: { id: "tok_x", name: "n", kind: "human" }, on_behalf_of: "x", model: null, surface: "rest" },
  created_at: new Date().toISOString(),
  expires_at: null,
  metadata: prepared.metadata,
};
await time("event payload (artifact.created data parse)", () => EVENT_DATA["artifact.created"].parse(data), 2000);

console.log(`\n# the database (${driver}), one statement at a time`);
const store = await openTestStore(driver);
let argument;
const query = store.query.bind(store);
store.query = (text, params) => {
  if (text.includes("cairn_write_receipt")) argument = params[0];
  return query(text, params);
};
const world = await createTestWorld(store);
const sam = await world.user();
await time("receipt_create, whole (in-process core)", (i) =>
  world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ learned: `unique ${i} ${Math.random()}` })),
);
// Writes go as calls of cairn_write_receipts (ADR 0066): a JSON array, here of one write each.
const sent = JSON.parse(argument);
const template = Array.isArray(sent) ? sent[0] : sent;
let n = 0;
const freshArgument = () => {
  n++;
  const w = structuredClone(template);
  const tag = `${n}_${Math.random().toString(36).slice(2)}`;
  Object.assign(w.artifact, { id: `art_w${tag}`, share_token: `st_${tag}`, checksum: `ck_${tag}` });
  w.event.id = `evt_w${tag}`;
  return w;
};
await time("select cairn_write_receipt (locks, checks, insert, outbox)", () =>
  query("select cairn_write_receipt($1::jsonb)", [JSON.stringify(freshArgument())]),
);
const insertOnly = () => query("select cairn_insert_artifact($1::jsonb)", [JSON.stringify(freshArgument().artifact)]);
await time("select cairn_insert_artifact (the row and its indexes)", insertOnly);
await query("create table bench_ceiling (id text primary key, owner text, body jsonb, created_at timestamptz)");
const body = JSON.stringify(raw);
await time("the ceiling's insert (one row, primary key only)", (i) =>
  query("insert into bench_ceiling (id, owner, body, created_at) values ($1, $2, $3::jsonb, now())", [`c${i}_${Math.random()}`, "user:x", body]),
);
// What full-text search costs each insert: drop its index, then its generated column (a throwaway database).
await query("drop index artifacts_search_idx");
await time("  … insert without the search GIN index", insertOnly);
await query("alter table artifacts drop column search");
await time("  … and without the search tsvector column", insertOnly);
await store.close();
