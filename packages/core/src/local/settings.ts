import { homedir } from "node:os";
import { join } from "node:path";
import { type OAuthSettings, oauthSettingsFrom } from "../oauth/settings.js";

/** Process settings from the environment (SPEC §2). Pure: no file system access. */
export interface Settings {
  databaseUrl: string | undefined;
  home: string;
  host: string;
  port: number;
  publicUrl: string;
  /** Where the CLI and stdio MCP send requests. */
  serverUrl: string;
  token: string | undefined;
  credentialsPath: string;
  dataDir: string;
  /** CAIRN_WEBHOOK_DENY_PRIVATE=1: refuse loopback, private and link-local webhook targets. */
  webhookDenyPrivate: boolean;
  /**
   * Tuning of the delivery schedule (tests, operators): CAIRN_WEBHOOK_RETRY_DELAYS_MS (comma-separated
   * delays before each retry) and CAIRN_WEBHOOK_LEASE_MS (how long a claimed delivery is held).
   */
  webhookRetryDelaysMs: number[] | undefined;
  webhookLeaseMs: number | undefined;
  /**
   * CAIRN_REQUEST_TIMEOUT_MS (default 30,000): how long a client may take to send a whole
   * request, headers and body; a slower one is answered 408 and disconnected.
   */
  requestTimeoutMs: number;
  /**
   * CAIRN_SMTP_URL (`smtp://user:pass@host:587`, STARTTLS when offered; `smtps://` for
   * implicit TLS) and CAIRN_MAIL_FROM: where email notifications go out. Unset: no mail.
   */
  mail: { smtpUrl: string; from: string } | undefined;
  /** CAIRN_ADMIN_TOKEN_NAME: what the administrator's first token is called (default "admin"). */
  adminTokenName: string | undefined;
  /** CAIRN_OAUTH_CLIENTS, CAIRN_OAUTH_REGISTRATION, CAIRN_OAUTH_MAX_CLIENTS: which OAuth clients may ask for consent (SPEC §26, §37). */
  oauth: OAuthSettings;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

function mailFrom(env: NodeJS.ProcessEnv, publicUrl: string): Settings["mail"] {
  const raw = env.CAIRN_SMTP_URL?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error("CAIRN_SMTP_URL must be a URL such as smtp://user:pass@mail.example.com:587 or smtps://mail.example.com.");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") throw new Error(`CAIRN_SMTP_URL must start with smtp:// or smtps:// (got ${url.protocol}).`);
  const from = env.CAIRN_MAIL_FROM?.trim() || `Cairn <cairn@${new URL(publicUrl).hostname}>`;
  return { smtpUrl: raw, from };
}

function positiveInts(name: string, raw: string | undefined): number[] | undefined {
  if (!raw) return undefined;
  const values = raw.split(",").map((v) => Number(v.trim()));
  if (values.some((v) => !Number.isInteger(v) || v < 0)) throw new Error(`${name} must be comma-separated whole milliseconds (got ${JSON.stringify(raw)}).`);
  return values;
}

export const DEFAULT_PORT = 7373;
export const DEFAULT_HOST = "127.0.0.1";

export function resolveSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const home = env.CAIRN_HOME && env.CAIRN_HOME.length > 0 ? env.CAIRN_HOME : join(homedir(), ".cairn");
  const host = env.HOST && env.HOST.length > 0 ? env.HOST : DEFAULT_HOST;
  const rawPort = env.PORT ? Number(env.PORT) : DEFAULT_PORT;
  if (!Number.isInteger(rawPort) || rawPort < 0 || rawPort > 65_535) {
    throw new Error(`PORT must be an integer between 0 and 65535 (got ${JSON.stringify(env.PORT)}).`);
  }
  const linkHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  const publicUrl = (env.CAIRN_PUBLIC_URL || `http://${linkHost}:${rawPort}`).replace(/\/+$/, "");
  return {
    databaseUrl: env.DATABASE_URL && env.DATABASE_URL.length > 0 ? env.DATABASE_URL : undefined,
    home,
    host,
    port: rawPort,
    publicUrl,
    serverUrl: (env.CAIRN_URL || `http://${DEFAULT_HOST}:${DEFAULT_PORT}`).replace(/\/+$/, ""),
    token: env.CAIRN_TOKEN && env.CAIRN_TOKEN.length > 0 ? env.CAIRN_TOKEN : undefined,
    credentialsPath: join(home, "credentials"),
    dataDir: join(home, "pgdata"),
    webhookDenyPrivate: env.CAIRN_WEBHOOK_DENY_PRIVATE === "1",
    webhookRetryDelaysMs: positiveInts("CAIRN_WEBHOOK_RETRY_DELAYS_MS", env.CAIRN_WEBHOOK_RETRY_DELAYS_MS),
    webhookLeaseMs: positiveInts("CAIRN_WEBHOOK_LEASE_MS", env.CAIRN_WEBHOOK_LEASE_MS)?.[0],
    requestTimeoutMs: positiveInts("CAIRN_REQUEST_TIMEOUT_MS", env.CAIRN_REQUEST_TIMEOUT_MS)?.find((ms) => ms > 0) ?? DEFAULT_REQUEST_TIMEOUT_MS,
    mail: mailFrom(env, publicUrl),
    adminTokenName: env.CAIRN_ADMIN_TOKEN_NAME && env.CAIRN_ADMIN_TOKEN_NAME.length > 0 ? env.CAIRN_ADMIN_TOKEN_NAME : undefined,
    oauth: oauthSettingsFrom(env),
  };
}
