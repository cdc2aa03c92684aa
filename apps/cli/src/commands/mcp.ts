import { type Credentials, readCredentials, resolveSettings } from "@cairn/core/local";

export interface McpConnection {
  serverUrl: string;
  token: string;
}

/**
 * Where `cairn mcp` connects, and as whom: CAIRN_URL and CAIRN_TOKEN when set, otherwise
 * the credentials file `cairn serve` writes (it keeps the server's current URL there).
 */
export async function resolveMcpConnection(env: NodeJS.ProcessEnv = process.env): Promise<McpConnection> {
  const settings = resolveSettings(env);
  const explicitUrl = Boolean(env.CAIRN_URL);
  let creds: Credentials | null = null;
  if (!settings.token) creds = await readCredentials(settings.credentialsPath);
  // Only the URL is wanted then, so an unreadable file is not the caller's problem.
  else if (!explicitUrl) creds = await readCredentials(settings.credentialsPath).catch(() => null);
  const token = settings.token ?? creds?.token;
  if (!token) {
    throw new Error(
      `mcp: no token. Set CAIRN_TOKEN, or run \`cairn serve\` once on this machine so it writes ${settings.credentialsPath}.`,
    );
  }
  const serverUrl = explicitUrl || !creds ? settings.serverUrl : creds.url.replace(/\/+$/, "");
  return { serverUrl, token };
}

/** `cairn mcp`: serves MCP on stdin/stdout until the client closes stdin. Nothing but protocol goes to stdout. */
export async function runMcp(version: string): Promise<void> {
  const connection = await resolveMcpConnection();
  const { runStdioProxy } = await import("@cairn/mcp/stdio");
  const proxy = await runStdioProxy({ ...connection, version, warn: (line) => console.error(line) }).catch((err: Error) => {
    throw new Error(`mcp: ${err.message}`);
  });
  console.error(`cairn mcp: serving MCP on stdio for ${connection.serverUrl}/mcp`);
  const stop = () => void proxy.close();
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  await proxy.done;
  process.exit(0);
}
