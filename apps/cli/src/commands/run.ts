import type { OperationName, OperationOutput } from "@cairn/core";
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

/** What a command does with one operation's input: its human output and, optionally, its own answer or exit code. */
export interface OperationHandling<N extends OperationName> {
  /** Human output of a success; --json prints the REST answer verbatim instead. */
  human(data: OperationOutput<N>, printer: Printer): void;
  /** Exit code of a success, with or without --json (e.g. `cairn doctor` exits 1 on a warning). */
  exitCode?(data: OperationOutput<N>): number;
  /** Answers the input itself instead of calling the operation (returns true when it did), e.g. `cairn read <share link>`. */
  answer?(input: Record<string, unknown>, ctx: CommandContext, json: boolean): Promise<boolean>;
}

/**
 * Sends one operation's input and prints the answer: what every operation command does
 * once its command line is read. Commander-free, so `cairn read ID` can run it without
 * loading the program (quick.ts).
 */
export async function runOperation<N extends OperationName>(
  ctx: CommandContext,
  operation: N,
  handling: OperationHandling<N>,
  input: Record<string, unknown>,
  json: boolean,
): Promise<void> {
  if (handling.answer && (await handling.answer(input, ctx, json))) return;
  await runWithClient(ctx, json, async (client, printer) => {
    const answer = await client.call(operation, input);
    if (json) printer.out(answer.text);
    else handling.human(answer.data, printer);
    return handling.exitCode?.(answer.data);
  });
}
