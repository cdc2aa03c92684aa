export { BACKLOG_CAP } from "./builtin-gauges.js";
export { type GaugeSample, registerScrapeGauge, type ScrapeGauge } from "./gauges.js";
export { type AttemptOutcome, attemptOutcome, collectProcessMetrics, processMetrics, type RequestSample } from "./registry.js";
export { isMetricsToken, mayReadMetrics, renderMetrics } from "./render.js";
export { METRICS_TOKEN_MIN_LENGTH, type MetricsSettings, metricsSettingsFrom } from "./settings.js";
