// Webhook rows of pnpm bench: create → delivery latency (row `delivery`), and what the
// outbox costs POST /v1/receipts (in the micro row). Runs alone too: node tooling/bench/webhooks.mjs
import { fileURLToPath } from "node:url";
import { startWorker } from "@cairn/core";
import { fullReceipt, startReceiver } from "@cairn/core/testing";
import { createRestApp } from "@cairn/rest";
import { printFigures, QUICK, report } from "./lib.mjs";
import { limitFigure, percentile } from "./limit.mjs";
import { loadCreate } from "./load/http.mjs";
import { benchDatabase, startCairn } from "./load/procs.mjs";

/** Receipts per second at `concurrency` in-process clients, each request a distinct receipt. */
async function throughput(app, token, label, { total = 600, concurrency = 16 } = {}) {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const res = await app.request("/v1/receipts", { method: "POST", headers, body: JSON.stringify(fullReceipt({ learned: `${label} ${i}` })) });
        if (res.status !== 201) throw new Error(`POST /v1/receipts → ${res.status}`);
      }
    }),
  );
  return (performance.now() - started) / total; // ms per receipt
}

/**
 * Row `delivery`: create → delivery through a real `cairn serve` (its worker delivers, as
 * in production), each artifact timed from its POST /v1/artifacts leaving this process to
 * its arrival at a loopback receiver here, at a steady 20 artifacts/s: on a quiet server,
 * and while autocannon writes receipts for an owner without subscriptions. The first
 * second after start (JIT, first queries) is a figure of its own, not in the p95s. The
 * baseline is the create's own response time in the same run; the target is the issue's
 * 250 ms at p95 on the quiet server.
 */
export async function benchDelivery(drivers) {
  const seconds = QUICK ? 3 : 15;
  for (const driver of drivers) {
    const db = await benchDatabase(driver);
    const receiver = await startReceiver();
    let cairn;
    try {
      cairn = await startCairn(db, { CAIRN_WEBHOOK_ALLOW_PRIVATE: "1", CAIRN_WEBHOOK_DENY_PRIVATE: "0" });
      // The admin writes the background load as itself; the timed artifacts go to a team
      // that has the only subscription, so only they are delivered.
      const team = `delivery-${process.pid}`;
      await api(cairn, "POST", "/v1/teams", { name: team });
      await api(cairn, "POST", "/v1/subscriptions", { url: receiver.url, owner: `team:${team}` });
      const stream = (secs, label) => deliveryLatency(cairn, receiver, { owner: `team:${team}`, seconds: secs, label });

      const cold = await stream(1, "cold");
      limitFigure({
        name: `create → delivery max, first second (${driver})`,
        value: cold.delivery.at(-1),
        baselineName: "POST /v1/artifacts max",
        baseline: cold.response.at(-1),
      });
      const quiet = await stream(seconds, "quiet");
      reportStream(`${driver}, ${RATE}/s`, quiet, DELIVERY_P95_MS);
      const [loaded, load] = await Promise.all([
        stream(seconds, "loaded"),
        loadCreate([cairn.url], cairn.token, { connections: WRITERS, duration: seconds + 1 }),
      ]);
      if (load.bad > 0) throw new Error(`cairn answered ${load.bad} non-2xx or errors under load`);
      reportStream(`${driver}, ${RATE}/s + c${WRITERS} receipts`, loaded);
      console.log(`(meanwhile ${load.ok} receipts by ${WRITERS} connections, ${load.perSecond.toFixed(0)}/s)`);
    } finally {
      await cairn?.stop();
      await receiver.close();
      await db.dispose();
    }
  }
}

const RATE = 20;
/** Connections writing receipts beside the timed stream. */
const WRITERS = 8;
/** Issue 18: a webhook leaves within 250 ms of the create at p95. */
const DELIVERY_P95_MS = 250;

function reportStream(label, { delivery, response }, maxMs) {
  limitFigure({
    name: `create → delivery p50 (${label})`,
    value: percentile(delivery, 0.5),
    baselineName: "POST /v1/artifacts p50",
    baseline: percentile(response, 0.5),
  });
  limitFigure({
    name: `create → delivery p95 (${label})`,
    value: percentile(delivery, 0.95),
    baselineName: "POST /v1/artifacts p95",
    baseline: percentile(response, 0.95),
    maxMs,
  });
}

async function api(cairn, method, path, body) {
  const res = await fetch(`${cairn.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${cairn.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * `seconds` × RATE artifacts of `owner`, each to be delivered exactly once: both latency
 * lists sorted, in ms. Wall-clock times on both sides (the receiver stamps Date.now()).
 */
async function deliveryLatency(cairn, receiver, { owner, seconds, label }) {
  const count = seconds * RATE;
  const before = receiver.received.length;
  const sentAt = new Map();
  const response = [];
  const pending = [];
  const started = Date.now();
  for (let i = 0; i < count; i++) {
    // On a schedule, not after the previous one: a slow create must not slow the rate.
    const wait = started + (i * 1000) / RATE - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const title = `${label} ${i}`;
    const t = Date.now();
    sentAt.set(title, t);
    pending.push(api(cairn, "POST", "/v1/artifacts", { title, body: `b ${i}`, owner }).then(() => response.push(Date.now() - t)));
  }
  await Promise.all(pending);
  const arrived = (await receiver.waitFor(before + count, 60_000)).slice(before);
  const titles = arrived.map((r) => JSON.parse(r.body).data.title);
  if (new Set(titles).size !== count || titles.some((t) => !sentAt.has(t))) {
    throw new Error(`expected ${count} distinct deliveries of "${label}", got ${new Set(titles).size}`);
  }
  const delivery = arrived.map((r, k) => r.at - sentAt.get(titles[k]));
  return { delivery: delivery.sort((a, b) => a - b), response: response.sort((a, b) => a - b) };
}

/** SPEC §19: "another subscription's event still goes out within a few seconds". */
const FAIRNESS_MAX_MS = 3_000;
const BACKLOG = 16;

/**
 * Row `fairness`: another owner's create → delivery through a real `cairn serve` while one
 * receiver hangs (never answers, so each attempt holds a slot for the 15 s timeout) with
 * a backlog of 16 events. Baseline: the same owner's events with nothing hanging, same run.
 */
export async function benchFairness(drivers) {
  for (const driver of drivers) {
    const db = await benchDatabase(driver);
    const hanging = await startReceiver();
    hanging.script(...Array(4 * BACKLOG).fill("hang"));
    const healthy = await startReceiver();
    let cairn;
    try {
      cairn = await startCairn(db, { CAIRN_WEBHOOK_ALLOW_PRIVATE: "1", CAIRN_WEBHOOK_DENY_PRIVATE: "0" });
      const [stuck, other] = [`stuck-${process.pid}`, `other-${process.pid}`];
      for (const name of [stuck, other]) await api(cairn, "POST", "/v1/teams", { name });
      await api(cairn, "POST", "/v1/subscriptions", { url: healthy.url, owner: `team:${other}` });
      const timed = async (n, label) => {
        const delays = [];
        for (let i = 0; i < n; i++) {
          const before = healthy.received.length;
          const t = Date.now();
          await api(cairn, "POST", "/v1/artifacts", { title: `${label} ${i}`, body: "b", owner: `team:${other}` });
          const arrived = await healthy.waitFor(before + 1, 90_000);
          delays.push((arrived[before]?.at ?? Infinity) - t);
        }
        return delays.sort((a, b) => a - b);
      };
      await timed(3, "warm");
      const quiet = await timed(5, "quiet");
      await api(cairn, "POST", "/v1/subscriptions", { url: hanging.url, owner: `team:${stuck}` });
      for (let i = 0; i < BACKLOG; i++) await api(cairn, "POST", "/v1/artifacts", { title: `backlog ${i}`, body: "b", owner: `team:${stuck}` });
      await hanging.waitFor(1);
      await new Promise((r) => setTimeout(r, 300));
      const held = hanging.received.length;
      const behind = await timed(5, "behind");
      limitFigure({
        name: `other owner's create → delivery max, a receiver hanging with ${BACKLOG} queued (${driver})`,
        value: behind.at(-1),
        baselineName: "the same, nothing hanging",
        baseline: quiet.at(-1),
        maxMs: FAIRNESS_MAX_MS,
      });
      console.log(`(the hanging receiver held ${held} connections; the cap is 2 per subscription)`);
    } finally {
      await cairn?.stop();
      await hanging.close();
      await healthy.close();
      await db.dispose();
    }
  }
}

/** Micro row: what the outbox costs POST /v1/receipts, the worker delivering in the same process. */
export async function benchWebhooks(world, driver) {
  const app = createRestApp(world.cairn);
  const receiver = await startReceiver();
  const worker = startWorker({ store: world.store, config: world.cairn.config, jobs: [] });
  try {
    // The same load for an owner without subscriptions and one with a subscription
    // (delivered by the running worker, in the same process). The outbox must not halve it.
    const quiet = await world.user("nosub");
    const loud = await world.user("onesub");
    await world.cairn.invoke("subscription_create", loud.ctx(), { url: receiver.url });
    await throughput(app, quiet.token, "warm", { total: 100 });
    // Interleaved rounds, best of each, so neither side gets the warmer machine.
    const rounds = { without: [], with: [] };
    for (let round = 0; round < 2; round++) {
      rounds.without.push(await throughput(app, quiet.token, `without ${round}`));
      rounds.with.push(await throughput(app, loud.token, `with ${round}`));
    }
    const without = Math.min(...rounds.without);
    const withSub = Math.min(...rounds.with);
    report(`POST /v1/receipts ms/receipt, 1 subscription (${driver})`, withSub, "the same, no subscription", without, 2);
  } finally {
    await worker.stop(2_000);
    await receiver.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchDelivery((process.env.CAIRN_BENCH_DRIVERS ?? "pg,pglite").split(","));
  process.exit(printFigures() ? 0 : 1);
}
