// Create rows: POST /v1/receipts at concurrency 32 against a real `cairn serve`, with the
// ceiling (bare hono + one insert, its own process, same kind of store) measured in the same run.
import { figure, QUICK } from "../lib.mjs";
import { loadCreate } from "./http.mjs";
import { benchDatabase, cpuMs, startCairn, startCeiling } from "./procs.mjs";

const DURATION = QUICK ? 3 : 10;
const WARMUP = QUICK ? 1 : 3;

/** A load run plus the server processes' CPU ms per request: less noisy than throughput on a shared machine. */
async function measured(urls, token, pids, opts) {
  const before = await Promise.all(pids.map(cpuMs));
  const result = await loadCreate(urls, token, opts);
  const after = await Promise.all(pids.map(cpuMs));
  const cpu = after.reduce((s, v, i) => s + v - before[i], 0);
  return { ...result, cpuPerRequest: cpu / Math.max(1, result.ok + result.bad) };
}

/** Measures ceiling and Cairn in alternating rounds, best of each, so neither gets the quieter machine. */
async function compare(cairns, ceiling, rounds) {
  const cairnUrls = cairns.map((c) => c.url);
  const cairnToken = cairns[0].token;
  const ceilingUrl = ceiling.url;
  await loadCreate([ceilingUrl], "x", { duration: WARMUP });
  await loadCreate(cairnUrls, cairnToken, { duration: WARMUP });
  const best = { ceiling: null, cairn: null };
  for (let i = 0; i < rounds; i++) {
    const ceilingRun = await measured([ceilingUrl], "x", [ceiling.pid], { duration: DURATION });
    const cairn = await measured(
      cairnUrls,
      cairnToken,
      cairns.map((c) => c.pid),
      { duration: DURATION },
    );
    if (cairn.bad > 0) throw new Error(`cairn answered ${cairn.bad} non-2xx or errors under load`);
    if (!best.ceiling || ceilingRun.perSecond > best.ceiling.perSecond) best.ceiling = ceilingRun;
    if (!best.cairn || cairn.perSecond > best.cairn.perSecond) best.cairn = cairn;
  }
  return best;
}

/** SPEC §29: half the ceiling on PostgreSQL, 0.4× on the embedded store; the webhook row has no target. */
const CREATE_TARGET = { pg: 0.5, pglite: 0.4 };

function reportCreate(label, driver, { cairn, ceiling }, target) {
  figure({
    name: `${label} receipts/s (${driver}, c32)`,
    value: cairn.perSecond,
    unit: "req/s",
    baselineName: "ceiling: bare hono + 1 insert",
    baseline: ceiling.perSecond,
    ...(target !== undefined && { target }),
    higherIsBetter: true,
  });
  figure({ name: `${label} p50 (${driver}, c32)`, value: cairn.p50, unit: "ms", baselineName: "ceiling p50", baseline: ceiling.p50 });
  figure({ name: `${label} p99 (${driver}, c32)`, value: cairn.p99, unit: "ms", baselineName: "ceiling p99", baseline: ceiling.p99 });
  figure({
    name: `${label} server CPU ms/receipt (${driver})`,
    value: cairn.cpuPerRequest,
    unit: "ms",
    baselineName: "ceiling CPU ms/request",
    baseline: ceiling.cpuPerRequest,
  });
}

async function withServers(driver, fn, { servers = 1, env = {} } = {}) {
  const db = await benchDatabase(driver);
  const ceilingDb = await benchDatabase(driver);
  const started = [];
  try {
    const first = await startCairn(db, env);
    started.push(first);
    for (let i = 1; i < servers; i++) started.push(await startCairn(db, env));
    const ceiling = await startCeiling(ceilingDb);
    started.push(ceiling);
    return await fn({ cairns: started.slice(0, servers), ceiling, db });
  } finally {
    for (const s of started.reverse()) await s.stop();
    await db.dispose();
    await ceilingDb.dispose();
  }
}

export async function benchCreate(drivers) {
  for (const driver of drivers) {
    await withServers(driver, async ({ cairns: [cairn], ceiling }) => {
      reportCreate("POST /v1/receipts", driver, await compare([cairn], ceiling, QUICK ? 1 : 2), CREATE_TARGET[driver]);
    });
  }
}

/** The same load for an owner with one webhook subscription to a loopback receiver (events). */
export async function benchCreateWebhook(drivers, { startReceiver }) {
  for (const driver of drivers) {
    const receiver = await startReceiver();
    try {
      await withServers(
        driver,
        async ({ cairns: [cairn], ceiling }) => {
          const res = await fetch(`${cairn.url}/v1/subscriptions`, {
            method: "POST",
            headers: { authorization: `Bearer ${cairn.token}`, "content-type": "application/json" },
            body: JSON.stringify({ url: receiver.url }),
          });
          if (res.status !== 201) throw new Error(`POST /v1/subscriptions → ${res.status} ${await res.text()}`);
          reportCreate("POST /v1/receipts, 1 webhook", driver, await compare([cairn], ceiling, 1));
        },
        { env: { CAIRN_WEBHOOK_ALLOW_PRIVATE: "1", CAIRN_WEBHOOK_DENY_PRIVATE: "0" } },
      );
    } finally {
      await receiver.close();
    }
  }
}
