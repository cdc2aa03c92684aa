import { Counter, Gauge } from "prom-client";
import type { Store } from "../store/port.js";
import { metricsRegistry } from "./registry.js";

/** One sample of a gauge read at scrape time; labels from a closed set (see registry.ts). */
export interface GaugeSample {
  labels?: Record<string, string>;
  value: number;
}

/**
 * A gauge whose value lives in the database (a backlog, open asks, waiters), read when
 * Prometheus scrapes. `collect` must be one bounded query (a `limit` inside, an index to
 * use): a scrape never scans a table whose size a user controls.
 */
export interface ScrapeGauge {
  name: string;
  help: string;
  labelNames?: readonly string[];
  collect(store: Store): Promise<readonly GaugeSample[]>;
}

/** How long one gauge's query may take before the scrape goes on without it. */
export const GAUGE_WAIT_MS = 1_000;

const registered: Array<{ gauge: Gauge; spec: ScrapeGauge }> = [];

const collectFailures = new Counter({
  name: "cairn_metrics_collect_failures_total",
  help: "Scrape-time gauges that could not be read (the database failed or took longer than a second), by gauge.",
  labelNames: ["gauge"] as const,
  registers: [metricsRegistry],
});

/**
 * Adds a database-backed gauge to every later scrape. The hook later areas use for their
 * own gauges; registering a name twice is a programming error.
 */
export function registerScrapeGauge(spec: ScrapeGauge): void {
  if (registered.some((r) => r.spec.name === spec.name)) throw new Error(`metric ${spec.name} is registered twice`);
  const gauge = new Gauge({ name: spec.name, help: spec.help, labelNames: [...(spec.labelNames ?? [])], registers: [metricsRegistry] });
  registered.push({ gauge, spec });
}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("gauge query took too long")), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Reads every registered gauge from the store, side by side; one that fails or is late is left out of this scrape. */
export async function collectScrapeGauges(store: Store): Promise<void> {
  await Promise.all(
    registered.map(async ({ gauge, spec }) => {
      try {
        const samples = await within(spec.collect(store), GAUGE_WAIT_MS);
        gauge.reset();
        for (const s of samples) gauge.set(s.labels ?? {}, s.value);
      } catch {
        gauge.reset();
        collectFailures.inc({ gauge: spec.name });
      }
    }),
  );
}
