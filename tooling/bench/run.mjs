// pnpm bench: each Cairn path against its baseline, measured in the same run, reported as a ratio.
import { fileURLToPath } from "node:url";
import { openStore } from "@cairn/core";
import { createTestDatabase, createTestWorld, fullReceipt } from "@cairn/core/testing";
import { createMcpHttpHandler } from "@cairn/mcp";
import { createRestApp } from "@cairn/rest";
import { Hono } from "hono";
import { WORST_BODIES } from "./hostile.mjs";
import { medianMs, medianSpawnMs, printReport, report } from "./lib.mjs";
import { benchWebhooks } from "./webhooks.mjs";

const CLI = fileURLToPath(new URL("../../apps/cli/dist/bin.cjs", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../../examples/receipt.json", import.meta.url));
const drivers = (process.env.CAIRN_BENCH_DRIVERS ?? "pg,pglite").split(",");

/** The baseline: one raw single-row insert of an artifact-sized row, no validation or rendering. */
async function rawInsert(store, i, body) {
  await store.query(`insert into bench_raw (id, owner, body, metadata) values ($1, $2, $3, $4::json)`, [
    `raw_${i}_${Math.random()}`,
    "user:bench",
    body,
    JSON.stringify(fullReceipt({ learned: `raw ${i}` })),
  ]);
}

for (const driver of drivers) {
  const db = await createTestDatabase(driver);
  const store = await openStore(driver === "pg" ? { databaseUrl: db.databaseUrl } : { dataDir: db.dataDir });
  await store.query("create table bench_raw (id text primary key, owner text, body text, metadata json)");
  const world = await createTestWorld(store);
  const sam = await world.user("bench");
  const body = "x".repeat(1500);

  const raw = await medianMs((i) => rawInsert(store, i, body));
  const service = await medianMs((i) => world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ learned: `svc ${i}` })));
  report(`receipt_create (core, ${driver})`, service, `raw ${driver} insert`, raw);
  // The gates' own cost: a receipt whose secret is found and redacted, and a refusal (its drop receipt written).
  const ghp = ["ghp_", "A1b2C3d4E5f6G7h8I9j0", "K1l2M3n4O5p6Q7r8"].join("");
  const redacted = await medianMs((i) => world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ learned: `red ${i}`, before: `token ${ghp}` })));
  report(`receipt_create, secret redacted (${driver})`, redacted, `raw ${driver} insert`, raw);
  const refused = await medianMs((i) =>
    world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ learned: `drop ${i}`, changed: "Too thin" })).then(
      () => {
        throw new Error("expected a refusal");
      },
      (err) => {
        if (!err.drop?.id) throw err;
      },
    ),
  );
  report(`refused receipt + drop write (${driver})`, refused, `raw ${driver} insert`, raw);

  // REST: the full route (auth, parse, gates, render, transaction) against a bare hono JSON handler.
  const app = createRestApp(world.cairn, { mounts: { "/mcp": createMcpHttpHandler(world.cairn, { version: "bench" }) } });
  const bare = new Hono().post("/x", async (c) => c.json(await c.req.json(), 201));
  const headers = { authorization: `Bearer ${sam.token}`, "content-type": "application/json" };
  const bareMs = await medianMs(() => bare.request("/x", { method: "POST", headers, body: JSON.stringify(fullReceipt()) }));
  const restMs = await medianMs(async (i) => {
    const res = await app.request("/v1/receipts", { method: "POST", headers, body: JSON.stringify(fullReceipt({ learned: `rest ${i}` })) });
    if (res.status !== 201) throw new Error(`POST /v1/receipts → ${res.status}`);
  });
  report(`POST /v1/receipts (${driver})`, restMs, "bare hono handler", bareMs);
  report(`POST /v1/receipts (${driver})`, restMs, `raw ${driver} insert`, raw);

  // MCP over Streamable HTTP: a fresh stateless server and transport per request, against the REST route.
  const mcpHeaders = { ...headers, accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
  const mcpMs = await medianMs(async (i) => {
    const call = { jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "receipt_create", arguments: fullReceipt({ learned: `mcp ${i}` }) } };
    const res = await app.request("/mcp", { method: "POST", headers: mcpHeaders, body: JSON.stringify(call) });
    const answer = await res.json();
    if (answer.result?.isError !== undefined || !answer.result?.structuredContent) throw new Error(`tools/call → ${JSON.stringify(answer).slice(0, 200)}`);
  });
  report(`MCP tools/call receipt_create (${driver})`, mcpMs, "POST /v1/receipts", restMs);

  // Hostile input (SPEC §14): the worst body within the request limit, and /healthz while it is in flight.
  // In-process, so /healthz waits exactly as long as the body holds the event loop.
  let worst = { label: "", ms: 0, body: "" };
  for (const [label, make] of Object.entries(WORST_BODIES)) {
    const body = JSON.stringify(make());
    const ms = await medianMs(
      async () => {
        const res = await app.request("/v1/receipts", { method: "POST", headers, body });
        if (res.status >= 500) throw new Error(`${label} → ${res.status}`);
        await res.text();
      },
      { runs: 9, warmup: 2 },
    );
    if (ms > worst.ms) worst = { label, ms, body };
  }
  report(`worst body: ${worst.label} (${driver})`, worst.ms, "POST /v1/receipts", restMs);
  const health = () => app.request("/healthz").then((r) => r.text());
  const idleHealth = await medianMs(health, { runs: 50, warmup: 5 });
  const busy = [];
  for (let i = 0; i < 9; i++) {
    const inFlight = app.request("/v1/receipts", { method: "POST", headers, body: worst.body });
    const started = performance.now();
    await health();
    busy.push(performance.now() - started);
    await inFlight;
  }
  busy.sort((a, b) => a - b);
  report(`/healthz under the worst body (${driver})`, busy[busy.length - 1], "/healthz idle", idleHealth);

  if (process.env.CAIRN_BENCH_WEBHOOKS !== "0") await benchWebhooks(world, driver);

  await store.close();
  await db.dispose();
}

const nodeMs = medianSpawnMs(["-e", ""]);
report("cairn --version", medianSpawnMs([CLI, "--version"]), "node -e ''", nodeMs, 3);
// The offline path scripts use to check a receipt: core's validator and renderer, no server.
report("cairn receipt --dry-run (JSON file)", medianSpawnMs([CLI, "receipt", "--dry-run", "--from", EXAMPLE]), "node -e ''", nodeMs, 3);

const ok = printReport();
process.exit(ok ? 0 : 1);
