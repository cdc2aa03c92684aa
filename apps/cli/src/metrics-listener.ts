import type { AddressInfo } from "node:net";
import type { Cairn, MetricsSettings } from "@cairn/core";
import { metricsResponse } from "@cairn/rest";
import { serve } from "@hono/node-server";

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/**
 * CAIRN_METRICS_PORT: a listener that serves `/metrics` and nothing else, with no token.
 * It binds loopback unless CAIRN_METRICS_HOST says otherwise, so only what runs on this
 * machine (or what the operator lets reach that address) can scrape it.
 */
export async function startMetricsListener(cairn: Cairn, settings: MetricsSettings): Promise<MetricsListener | undefined> {
  if (settings.port === undefined) return undefined;
  const server = serve({
    fetch: async (req) => {
      const path = new URL(req.url).pathname;
      if (path !== "/metrics") return new Response("Only /metrics is served here.\n", { status: 404 });
      if (req.method !== "GET" && req.method !== "HEAD") return new Response("GET /metrics\n", { status: 405, headers: { Allow: "GET" } });
      return metricsResponse(cairn);
    },
    port: settings.port,
    hostname: settings.host,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${settings.host.includes(":") ? `[${settings.host}]` : settings.host}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
