import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

/**
 * The process's one Prometheus registry (SPEC §39). Counters are per process, as
 * Prometheus expects: each `cairn serve` is scraped on its own and the server sums them.
 * Labels take values from closed sets only (operation names, route patterns, outcomes,
 * categories): never an id, a user name or a raw path, so a series count stays bounded.
 */
export const metricsRegistry = new Registry();

/** Latency buckets from a cached read (a few ms) to the statement timeout's neighbourhood. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const requestLabels = ["operation", "surface", "status"] as const;

const requests = new Counter({
  name: "cairn_requests_total",
  help: "Requests answered, by operation (or route pattern when no operation ran), surface and HTTP status.",
  labelNames: requestLabels,
  registers: [metricsRegistry],
});

const requestDuration = new Histogram({
  name: "cairn_request_duration_seconds",
  help: "Time from a request's arrival to its answer, by operation, surface and HTTP status.",
  labelNames: requestLabels,
  buckets: REQUEST_BUCKETS,
  registers: [metricsRegistry],
});

/** `delivered`: a 2xx; `rejected`: the receiver answered something else; `unreachable`: no answer at all. */
export type AttemptOutcome = "delivered" | "rejected" | "unreachable";

const webhookAttempts = new Counter({
  name: "cairn_webhook_attempts_total",
  help: "Webhook delivery attempts, by outcome (delivered, rejected, unreachable).",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
});

const notificationAttempts = new Counter({
  name: "cairn_notification_attempts_total",
  help: "Notification messages sent to a channel, by outcome (delivered, rejected, unreachable).",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
});

const drops = new Counter({
  name: "cairn_drops_total",
  help: "Submissions turned away and kept as drop receipts, by category.",
  labelNames: ["category"] as const,
  registers: [metricsRegistry],
});

/** What kind of database failure: a closed set, so a label never carries an arbitrary SQLSTATE. */
export type DatabaseErrorKind = "unavailable" | "conflict" | "constraint" | "timeout" | "other";

const databaseErrors = new Counter({
  name: "cairn_database_errors_total",
  help: "Database statements that failed, by kind (unavailable, conflict, constraint, timeout, other).",
  labelNames: ["kind"] as const,
  registers: [metricsRegistry],
});

export interface RequestSample {
  operation: string;
  surface: string;
  status: number;
  seconds: number;
}

/** What the adapters and workers feed; reading them back is `renderMetrics`'s job. */
export const processMetrics = {
  request({ operation, surface, status, seconds }: RequestSample): void {
    const labels = { operation, surface, status: String(status) };
    requests.inc(labels);
    requestDuration.observe(labels, seconds);
  },
  webhookAttempt: (outcome: AttemptOutcome) => webhookAttempts.inc({ outcome }),
  notificationAttempt: (outcome: AttemptOutcome) => notificationAttempts.inc({ outcome }),
  drop: (category: string) => drops.inc({ category }),
  databaseError: (kind: DatabaseErrorKind) => databaseErrors.inc({ kind }),
};

/** The outcome of one attempt from what came back: a status (or none) and whether it counts as delivered. */
export const attemptOutcome = (ok: boolean, status: number | null): AttemptOutcome => (ok ? "delivered" : status === null ? "unreachable" : "rejected");

let processMetricsOn = false;

/** Node's process and runtime metrics (`process_…`, `nodejs_…`); only a server turns them on (they start timers). */
export function collectProcessMetrics(): void {
  if (processMetricsOn) return;
  processMetricsOn = true;
  collectDefaultMetrics({ register: metricsRegistry });
}
