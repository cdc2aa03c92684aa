import { readCredentials, resolveSettings } from "@cairn/core/local";
import { EXIT } from "../exit-codes.js";
import { CliFailure } from "../failure.js";

export interface Connection {
  /** Base URL of the server, without a trailing slash. */
  url: string;
  token: string;
  /** Where the token came from, for messages: `CAIRN_TOKEN` or the credentials file's path. */
  tokenSource: string;
}

const normal = (url: string) => url.replace(/\/+$/, "");

/** The same server, however it is spelled: scheme, host and port compared as URLs (`HTTP://Host:80/` = `http://host`). */
export function sameServer(a: string, b: string): boolean {
  try {
    const [x, y] = [new URL(a), new URL(b)];
    return x.origin === y.origin && normal(x.pathname) === normal(y.pathname);
  } catch {
    return normal(a) === normal(b);
  }
}

function checked(connection: Connection): Connection {
  let parsed: URL | undefined;
  try {
    parsed = new URL(connection.url);
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol !== "http:" && parsed?.protocol !== "https:") {
    throw new CliFailure(EXIT.usage, `CAIRN_URL must be an http(s) URL such as http://127.0.0.1:7373 (got ${JSON.stringify(connection.url)}).`);
  }
  return connection;
}

/**
 * The one connection rule, for every client command and `cairn mcp`. CAIRN_URL and
 * CAIRN_TOKEN win; otherwise `$CAIRN_HOME/credentials` (written by `cairn serve`). The
 * file's token is only ever sent to the file's own url: pointing CAIRN_URL at another
 * server without CAIRN_TOKEN is an auth failure, never a leak of the local admin token
 * to somewhere else.
 */
export async function resolveConnection(env: Readonly<Record<string, string | undefined>>): Promise<Connection> {
  const settings = resolveSettings(env);
  const explicitUrl = env.CAIRN_URL ? normal(env.CAIRN_URL) : undefined;
  if (explicitUrl && settings.token) return checked({ url: explicitUrl, token: settings.token, tokenSource: "CAIRN_TOKEN" });

  let credentials: Awaited<ReturnType<typeof readCredentials>>;
  try {
    credentials = await readCredentials(settings.credentialsPath);
  } catch (err) {
    throw new CliFailure(EXIT.auth, `${(err as Error).message} Set CAIRN_TOKEN, or fix the file.`);
  }
  const url = explicitUrl ?? (credentials ? normal(credentials.url) : settings.serverUrl);
  if (settings.token) return checked({ url, token: settings.token, tokenSource: "CAIRN_TOKEN" });
  if (credentials && sameServer(credentials.url, url)) {
    return checked({ url, token: credentials.token, tokenSource: settings.credentialsPath });
  }
  throw new CliFailure(
    EXIT.auth,
    credentials
      ? `no token for ${url}: ${settings.credentialsPath} holds a token for ${normal(credentials.url)} only. Set CAIRN_TOKEN.`
      : `no token: set CAIRN_TOKEN, or run \`cairn serve\` on this machine once to create ${settings.credentialsPath}.`,
  );
}
