import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DRIVERS, minimalReceipt } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { eventually, PROMETHEUS_BIN, startPrometheus } from "./prometheus.js";
import { homeFor, spawnServe } from "./serve-process.js";

const tokenOf = (home: string) => (JSON.parse(readFileSync(join(home, "credentials"), "utf8")) as { token: string }).token;
const METRICS_TOKEN = "metrics-token-for-the-scraper-0123456789";

async function post(url: string, token: string, body: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

/**
 * SPEC §39: a real Prometheus scrapes a real `cairn serve` — once on CAIRN_METRICS_PORT
 * (loopback, no token), once on the main port with CAIRN_METRICS_TOKEN — and answers a
 * rate query over what the server counted. Label values stay within closed sets.
 */
describe.runIf(existsSync(PROMETHEUS_BIN)).each(DRIVERS)("Prometheus scrapes cairn serve on %s", (driver) => {
  it("answers rate(cairn_requests_total) for receipts written, with bounded labels, both ways of scraping", async () => {
    const { env, home, dispose } = await homeFor(driver);
    const serve = await spawnServe({ ...env, CAIRN_METRICS_PORT: "0", CAIRN_METRICS_TOKEN: METRICS_TOKEN });
    const scrapers: Array<{ stop(): Promise<void> }> = [];
    try {
      const metricsUrl = await eventually(async () => serve.output().match(/Metrics \(no token\): (http:\/\/\S+)/)?.[1], 10_000, "the metrics line");
      expect(new URL(metricsUrl).hostname).toBe("127.0.0.1");
      const token = tokenOf(home);

      // The main port wants a token; an admin's and the metrics token both do.
      expect((await fetch(`${serve.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${serve.url}/metrics`, { headers: { authorization: "Bearer not-the-metrics-token-at-all-000" } })).status).toBe(401);
      expect((await fetch(`${serve.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

      const viaPort = await startPrometheus({ hostPort: new URL(metricsUrl).host });
      scrapers.push(viaPort);
      const viaMain = await startPrometheus({ hostPort: new URL(serve.url).host, bearer: METRICS_TOKEN });
      scrapers.push(viaMain);

      const ids: string[] = [];
      const refused = await post(`${serve.url}/v1/receipts`, token, { changed: "" });
      expect(refused.status).toBe(422);
      // Writes keep coming until both scrapers have answered, so each rate window holds several scrapes of a rising counter.
      let writingDone = false;
      const writing = (async () => {
        for (let i = 0; !writingDone || i < 12; i++) {
          const created = await post(`${serve.url}/v1/receipts`, token, minimalReceipt({ changed: `Rotated key number ${i}` }));
          expect(created.status).toBe(201);
          ids.push(created.json.id);
          await fetch(`${serve.url}/no/such/route/${created.json.id}`);
          await new Promise((r) => setTimeout(r, 300));
        }
      })();
      const rateQuery = 'sum(rate(cairn_requests_total{operation="receipt_create",surface="rest",status="201"}[10s]))';
      for (const prometheus of [viaPort, viaMain]) {
        const rate = await eventually(
          async () => {
            const [sample] = await prometheus.query(rateQuery);
            const value = Number(sample?.value[1]);
            return value > 0 ? value : undefined;
          },
          45_000,
          `a positive receipt_create rate from ${prometheus.url}:\n${prometheus.output().slice(-2000)}`,
        );
        expect(rate).toBeGreaterThan(0);
        expect(rate).toBeLessThan(50);
      }
      writingDone = true;
      await writing;

      const [up] = await viaMain.query('up{job="cairn"}');
      expect(up?.value[1]).toBe("1");
      const drops = await viaPort.query("sum(cairn_drops_total)");
      expect(Number(drops[0]?.value[1])).toBeGreaterThanOrEqual(1);
      const backlog = await viaPort.query("cairn_outbox_backlog");
      expect(backlog.map((s) => s.metric.stage).sort()).toEqual(["delivery", "fanout"]);
      const processSeries = await viaPort.query("process_resident_memory_bytes");
      expect(Number(processSeries[0]?.value[1])).toBeGreaterThan(0);
      const pool = await viaPort.query("cairn_database_pool_max_connections");
      expect(pool.length).toBe(driver === "pglite" ? 0 : 1);

      // No id, no raw path: every unknown route is one series, and no label value names a receipt.
      const series = await viaPort.query("cairn_requests_total");
      const labelValues = series.flatMap((s) => Object.values(s.metric));
      for (const id of ids) expect(labelValues.some((v) => v.includes(id))).toBe(false);
      expect(series.filter((s) => s.metric.operation === "unmatched")).toHaveLength(1);
      const exposition = await (await fetch(metricsUrl)).text();
      const unmatched = exposition.match(/^cairn_requests_total\{operation="unmatched",surface="http",status="404"\} (\d+)$/m);
      expect(Number(unmatched?.[1])).toBe(ids.length);
    } finally {
      for (const s of scrapers) await s.stop();
      await serve.stop();
      await dispose();
    }
  }, 150_000);
});
