import { resolveConnection } from "../client/connection.js";
import { processIo } from "../io.js";
import { runRelay } from "../mcp/relay.js";
import { mcpProtocol } from "../metadata.js";
import { reportFailure } from "../output.js";

const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write("", () => resolve()));

/**
 * `cairn mcp`: serves MCP on stdin/stdout until the client closes stdin, then answers the
 * calls still in flight and exits. Nothing but protocol goes to stdout. Where it connects
 * and with which token follows the same rule as every other command (client/connection.ts).
 */
export async function runMcp(version: string): Promise<void> {
  let connection: Awaited<ReturnType<typeof resolveConnection>>;
  try {
    connection = await resolveConnection(process.env);
  } catch (err) {
    process.exit(reportFailure(err, false, processIo()));
  }
  const relay = await runRelay({
    serverUrl: connection.url,
    token: connection.token,
    version,
    protocol: await mcpProtocol(),
    warn: (line) => console.error(line),
    stdin: process.stdin,
    stdout: process.stdout,
  }).catch((err: Error) => {
    throw new Error(`mcp: ${err.message}`);
  });
  console.error(`cairn mcp: serving MCP on stdio for ${connection.url}/mcp`);
  const stop = () => void relay.close();
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  await relay.done;
  await flushed(process.stdout);
  process.exit(0);
}
