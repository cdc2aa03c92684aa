// Not a bench row: what one OTLP export of a new 50-span trace costs, one export at a time (no
// concurrency, so no other request's work is in the figures): wall time per export, and CPU per
// span of PostgreSQL (every postgres process, from /proc) and of this process (decoding,
// mapping, scanning and the driver, in-process core). For A/Bs of the span write that the
// machine's load phases would drown: run it from two checkouts in turn and compare.
// node tooling/bench/span-cost.mjs [pg|pglite] [exports]   (after pnpm build)

import { createTestWorld, openTestStore } from "@cairn/core/testing";
import { receiveTraces } from "../../packages/core/dist/otlp/receive.js";
import { agentTraceBody, otlpTypes } from "./load/otlp-body.mjs";
import { postgresCpuMs } from "./load/procs.mjs";

const driver = process.argv[2] ?? "pg";
const exports = Number(process.argv[3] ?? 600);
const SPANS = 50;
const types = otlpTypes();
const store = await openTestStore(driver);
const world = await createTestWorld(store);
const sam = await world.user();
// Every export must be stored, or the figures would time a refusal.
const send = async (body) => {
  const reply = await receiveTraces(sam.ctx(), { body, contentType: "application/x-protobuf", contentEncoding: undefined });
  if (reply.code !== "ok") throw new Error(`export answered ${reply.code}`);
};
for (let i = 0; i < 100; i++) await send(agentTraceBody(types, SPANS));
const bodies = Array.from({ length: exports }, () => agentTraceBody(types, SPANS));
const started = performance.now();
const cpu = process.cpuUsage();
const db = driver === "pg" ? await postgresCpuMs() : 0;
for (const body of bodies) await send(body);
const dbMs = driver === "pg" ? (await postgresCpuMs()) - db : Number.NaN;
const used = process.cpuUsage(cpu);
const wall = performance.now() - started;
const spans = exports * SPANS;
console.log(
  JSON.stringify({
    driver,
    exports,
    wall_ms_per_export: +(wall / exports).toFixed(3),
    postgres_us_per_span: +((dbMs * 1000) / spans).toFixed(2),
    process_us_per_span: +(((used.user + used.system) / 1000 / spans) * 1000).toFixed(2),
  }),
);
await store.close();
