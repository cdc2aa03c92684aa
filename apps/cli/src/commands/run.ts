import { type Connection, resolveConnection } from "../client/connection.js";
import { CairnClient, clientLimitsFrom } from "../client/http.js";
import type { HttpFetch } from "../client/transport.js";
import { EXIT } from "../exit-codes.js";
import { CliFailure } from "../failure.js";
import type { CliIo } from "../io.js";
import { type Printer, printerFor, reportFailure } from "../output.js";

export interface CommandContext {
  /** The CLI's version, sent as the User-Agent. */
  version: string;
  io: CliIo;
  /** How requests are sent: `nodeFetch` in the binary; tests may pass global fetch. */
  fetch: HttpFetch;
  /** What the command exits with; `main` returns it. */
  exitCode: number;
}

/** Reports a failure that happened before any request, and sets the exit code. */
export function fail(ctx: CommandContext, err: unknown, json: boolean): void {
  ctx.exitCode = reportFailure(err, json, ctx.io);
}

/**
 * Connects (CAIRN_URL/CAIRN_TOKEN or the credentials file), runs, and turns any failure
 * into output and an exit code. A body may return its own exit code for a success
 * (`cairn doctor` exits 1 when a check warns).
 */
export async function runWithClient(
  ctx: CommandContext,
  json: boolean,
  body: (client: CairnClient, printer: Printer) => Promise<unknown>,
  /** Rewords a failure to connect (no token, a bad CAIRN_URL) for this command. */
  onConnectFailure?: (failure: CliFailure) => CliFailure,
): Promise<void> {
  let connection: Connection;
  try {
    connection = await resolveConnection(ctx.io.env);
  } catch (err) {
    fail(ctx, onConnectFailure && err instanceof CliFailure ? onConnectFailure(err) : err, json);
    return;
  }
  try {
    const client = new CairnClient(connection, ctx.version, ctx.fetch, clientLimitsFrom(ctx.io.env));
    const code = await body(client, printerFor(ctx.io, json));
    ctx.exitCode = typeof code === "number" ? code : EXIT.ok;
  } catch (err) {
    fail(ctx, err, json);
  }
}

export const JSON_HELP = "Print the REST answer as JSON on stdout; on failure, the REST error object.";
