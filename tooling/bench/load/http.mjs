// Load generation with autocannon: each request a distinct receipt, so the duplicate gate never answers 409.
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

const EXAMPLE = JSON.parse(readFileSync(new URL("../../../examples/receipt.json", import.meta.url), "utf8"));
let seq = 0;
const tag = `${process.pid}-${Date.now()}`;
/** The README's example receipt with a unique `learned`. */
export const exampleBody = () => JSON.stringify({ ...EXAMPLE, learned: `${EXAMPLE.learned} #${tag}-${seq++}` });

/**
 * POSTs unique receipts to each of `urls` (connections split evenly, so two servers get a
 * round-robin share each), for `duration` seconds or `amount` requests in total.
 */
export async function loadCreate(urls, token, { connections = 32, duration, amount, onResponse } = {}) {
  const per = Math.max(1, Math.floor(connections / urls.length));
  const runs = urls.map((url) =>
    autocannon({
      url,
      connections: per,
      ...(duration !== undefined && { duration }),
      ...(amount !== undefined && { amount: Math.ceil(amount / urls.length) }),
      timeout: 30,
      requests: [
        {
          method: "POST",
          path: "/v1/receipts",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          setupRequest: (req) => ({ ...req, body: exampleBody() }),
          ...(onResponse && { onResponse }),
        },
      ],
    }),
  );
  const results = await Promise.all(runs);
  return summarise(results);
}

/** GETs one path on one url for `duration` seconds. */
/** `answered: "3xx"` counts redirects and 304s as the expected answer (a revalidation). */
export async function loadGet(url, path, { connections = 32, duration, headers = {}, answered = "2xx" }) {
  return summarise([await autocannon({ url, connections, duration, timeout: 30, requests: [{ method: "GET", path, headers }] })], answered);
}

function summarise(results, answered = "2xx") {
  const ok = results.reduce((n, r) => n + r[answered], 0);
  const bad = results.reduce((n, r) => n + r.errors + r.timeouts + (answered === "2xx" ? r.non2xx : r.non2xx - r[answered]), 0);
  const seconds = Math.max(...results.map((r) => r.duration));
  return {
    perSecond: ok / seconds,
    p50: results.reduce((m, r) => Math.max(m, r.latency.p50), 0),
    p99: results.reduce((m, r) => Math.max(m, r.latency.p99), 0),
    ok,
    bad,
  };
}
