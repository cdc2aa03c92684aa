// Create rows: POST /v1/receipts at concurrency 32 against a real `cairn serve`, with two
// ceilings measured in the same run, each its own process on the same kind of store: the
// same-work ceiling (ceiling-work.mjs: Cairn's schema, the row, its search vector, event and
// fan-out row, group commit of 8), which the targets are set against (SPEC §38), and the old
// bare one (bare hono + one insert into a one-index table), printed beside it.
import { figure, QUICK } from "../lib.mjs";
import { loadCreate } from "./http.mjs";
import { benchDatabase, cpuMs, startCairn, startCeiling, startWorkCeiling } from "./procs.mjs";

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

/** Measures the ceilings and Cairn in alternating rounds, best of each, so none gets the quieter machine. */
async function compare(cairns, ceilings, rounds) {
  const cairnUrls = cairns.map((c) => c.url);
  const cairnToken = cairns[0].token;
  for (const c of Object.values(ceilings)) await loadCreate([c.url], "x", { duration: WARMUP });
  await loadCreate(cairnUrls, cairnToken, { duration: WARMUP });
  const best = { cairn: null };
  const keep = (key, run) => {
    if (!best[key] || run.perSecond > best[key].perSecond) best[key] = run;
  };
  for (let i = 0; i < rounds; i++) {
    for (const [key, c] of Object.entries(ceilings)) {
      const run = await measured([c.url], "x", [c.pid], { duration: DURATION });
      if (run.bad > 0) throw new Error(`the ${key} ceiling answered ${run.bad} non-2xx or errors under load`);
      keep(key, run);
    }
    const cairn = await measured(
      cairnUrls,
      cairnToken,
      cairns.map((c) => c.pid),
      { duration: DURATION },
    );
    if (cairn.bad > 0) throw new Error(`cairn answered ${cairn.bad} non-2xx or errors under load`);
    keep("cairn", cairn);
  }
  return best;
}

/** SPEC §38: against the same-work ceiling, 0.7× on PostgreSQL and 1.0× on the embedded store; p99 at most 2× its p99. */
const CREATE_TARGET = { pg: 0.7, pglite: 1.0 };
const P99_TARGET = 2;

function reportCreate(label, driver, { cairn, work, bare }, target) {
  figure({
    name: `${label} receipts/s (${driver}, c32)`,
    value: cairn.perSecond,
    unit: "req/s",
    baselineName: "create-work: same schema, same rows",
    baseline: work.perSecond,
    ...(target !== undefined && { target }),
    higherIsBetter: true,
  });
  figure({
    name: `${label} receipts/s vs bare (${driver})`,
    value: cairn.perSecond,
    unit: "req/s",
    baselineName: "bare hono + 1 insert, 1 index",
    baseline: bare.perSecond,
    higherIsBetter: true,
  });
  figure({ name: `${label} p50 (${driver}, c32)`, value: cairn.p50, unit: "ms", baselineName: "create-work p50", baseline: work.p50 });
  figure({
    name: `${label} p99 (${driver}, c32)`,
    value: cairn.p99,
    unit: "ms",
    baselineName: "create-work p99",
    baseline: work.p99,
    ...(target !== undefined && { target: P99_TARGET }),
  });
  figure({
    name: `${label} server CPU ms/receipt (${driver})`,
    value: cairn.cpuPerRequest,
    unit: "ms",
    baselineName: "create-work CPU ms/request",
    baseline: work.cpuPerRequest,
  });
}

async function withServers(driver, fn, { servers = 1, env = {} } = {}) {
  const db = await benchDatabase(driver);
  const bareDb = await benchDatabase(driver);
  const workDb = await benchDatabase(driver);
  const started = [];
  try {
    const first = await startCairn(db, env);
    started.push(first);
    for (let i = 1; i < servers; i++) started.push(await startCairn(db, env));
    const work = await startWorkCeiling(workDb);
    started.push(work);
    const bare = await startCeiling(bareDb);
    started.push(bare);
    return await fn({ cairns: started.slice(0, servers), ceilings: { work, bare }, db });
  } finally {
    for (const s of started.reverse()) await s.stop();
    await db.dispose();
    await bareDb.dispose();
    await workDb.dispose();
  }
}

export async function benchCreate(drivers) {
  for (const driver of drivers) {
    await withServers(driver, async ({ cairns: [cairn], ceilings }) => {
      reportCreate("POST /v1/receipts", driver, await compare([cairn], ceilings, QUICK ? 1 : 2), CREATE_TARGET[driver]);
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
        async ({ cairns: [cairn], ceilings }) => {
          const res = await fetch(`${cairn.url}/v1/subscriptions`, {
            method: "POST",
            headers: { authorization: `Bearer ${cairn.token}`, "content-type": "application/json" },
            body: JSON.stringify({ url: receiver.url }),
          });
          if (res.status !== 201) throw new Error(`POST /v1/subscriptions → ${res.status} ${await res.text()}`);
          reportCreate("POST /v1/receipts, 1 webhook", driver, await compare([cairn], ceilings, 1));
        },
        { env: { CAIRN_WEBHOOK_ALLOW_PRIVATE: "1", CAIRN_WEBHOOK_DENY_PRIVATE: "0" } },
      );
    } finally {
      await receiver.close();
    }
  }
}
