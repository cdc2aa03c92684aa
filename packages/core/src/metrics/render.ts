import { createHash, timingSafeEqual } from "node:crypto";
import type { Principal } from "../context.js";
import type { Store } from "../store/port.js";
import "./builtin-gauges.js";
import { collectScrapeGauges } from "./gauges.js";
import { metricsRegistry } from "./registry.js";

/** The exposition of this process's metrics in Prometheus text format, database gauges read now. */
export async function renderMetrics(store: Store): Promise<{ contentType: string; body: string }> {
  await collectScrapeGauges(store);
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/** Whether a bearer is the operator's CAIRN_METRICS_TOKEN: compared in constant time (digests of equal length). */
export function isMetricsToken(bearer: string | undefined, configured: string | undefined): boolean {
  if (!bearer || !configured) return false;
  return timingSafeEqual(digest(bearer), digest(configured));
}

/** On the main port `/metrics` is for administrators (and the metrics token): counts span every owner. */
export const mayReadMetrics = (principal: Principal): boolean => principal.user.is_admin;
