/** Where metrics are served (SPEC §39), from the environment. Pure: no file system access. */
export interface MetricsSettings {
  /** CAIRN_METRICS_PORT: a second listener that serves only `/metrics`, without a token. Unset: none. */
  port: number | undefined;
  /** CAIRN_METRICS_HOST (default 127.0.0.1): that listener's address; loopback unless the operator says otherwise. */
  host: string;
  /** CAIRN_METRICS_TOKEN: a bearer a scraper may send to `/metrics` on the main port instead of an admin's token. */
  token: string | undefined;
}

/** A metrics token shorter than this is refused: it guards the main port and is compared as a secret. */
export const METRICS_TOKEN_MIN_LENGTH = 24;

export function metricsSettingsFrom(env: NodeJS.ProcessEnv = process.env): MetricsSettings {
  const rawPort = env.CAIRN_METRICS_PORT?.trim();
  let port: number | undefined;
  if (rawPort) {
    port = Number(rawPort);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      throw new Error(`CAIRN_METRICS_PORT must be an integer between 0 and 65535 (got ${JSON.stringify(env.CAIRN_METRICS_PORT)}).`);
    }
  }
  const token = env.CAIRN_METRICS_TOKEN?.trim() || undefined;
  if (token !== undefined && token.length < METRICS_TOKEN_MIN_LENGTH) {
    throw new Error(`CAIRN_METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters (got ${token.length}); e.g. openssl rand -hex 24.`);
  }
  return { port, host: env.CAIRN_METRICS_HOST?.trim() || "127.0.0.1", token };
}
