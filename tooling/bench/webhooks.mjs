// Webhook rows of pnpm bench: create → delivery latency, and what the outbox costs POST /v1/receipts.
import { startWorker } from "@cairn/core";
import { fullReceipt, startReceiver } from "@cairn/core/testing";
import { createRestApp } from "@cairn/rest";
import { report } from "./lib.mjs";

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

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

export async function benchWebhooks(world, driver) {
  const app = createRestApp(world.cairn);
  const receiver = await startReceiver();
  const worker = startWorker({ store: world.cairn.store, config: world.cairn.config, jobs: [] });
  try {
    // Latency: a steady 20 artifacts/s for 10 s, each timed from the request to its arrival at the receiver.
    const sam = await world.user("latency");
    await world.cairn.invoke("subscription_create", sam.ctx(), { url: receiver.url });
    const headers = { authorization: `Bearer ${sam.token}`, "content-type": "application/json" };
    const sentAt = new Map();
    const responseMs = [];
    const RATE = 20;
    const COUNT = 200;
    const pending = [];
    for (let i = 0; i < COUNT; i++) {
      const title = `latency ${i}`;
      const t = performance.now();
      sentAt.set(title, t);
      pending.push(
        app.request("/v1/artifacts", { method: "POST", headers, body: JSON.stringify({ title, body: `b ${i}` }) }).then((res) => {
          if (res.status !== 201) throw new Error(`POST /v1/artifacts → ${res.status}`);
          responseMs.push(performance.now() - t);
        }),
      );
      await new Promise((r) => setTimeout(r, 1000 / RATE));
    }
    await Promise.all(pending);
    await receiver.waitFor(COUNT, 60_000);
    const latencies = receiver.received
      .map((r) => {
        const title = JSON.parse(r.body).data.title;
        return r.at - (performance.timeOrigin + sentAt.get(title));
      })
      .sort((a, b) => a - b);
    responseMs.sort((a, b) => a - b);
    report(`create → delivery p50 (${driver}, ${RATE}/s)`, percentile(latencies, 0.5), "POST /v1/artifacts p50", percentile(responseMs, 0.5));
    report(`create → delivery p95 (${driver}, ${RATE}/s)`, percentile(latencies, 0.95), "POST /v1/artifacts p95", percentile(responseMs, 0.95));

    // Throughput: the same load for an owner without subscriptions and one with a subscription
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
