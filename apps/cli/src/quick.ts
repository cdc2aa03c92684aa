import { type HttpFetch, nodeFetch } from "./client/transport.js";
import { READ_HANDLING } from "./commands/read-handling.js";
import { type CommandContext, runOperation } from "./commands/run.js";
import { EXIT } from "./exit-codes.js";
import { type CliIo, processIo } from "./io.js";
import type { QuickLine } from "./quick-line.js";

/** Runs a quick line exactly as the program's `read` command does: the same handling (read-handling.ts), the same sending (run.ts). */
export async function runQuickLine(line: QuickLine, io: CliIo, fetchImpl: HttpFetch, version: string): Promise<number> {
  const ctx: CommandContext = { version, io, fetch: fetchImpl, exitCode: EXIT.ok };
  try {
    await runOperation(ctx, "artifact_read", READ_HANDLING, { id: line.id }, line.json);
    return ctx.exitCode;
  } catch (err) {
    io.err(`cairn: ${(err as Error).message}`);
    return EXIT.rejected;
  }
}

/** The binary's quick path (bin.ts): the process's streams and the CLI's HTTP client. */
export const runQuickInProcess = (line: QuickLine, version: string): Promise<number> => runQuickLine(line, processIo(), nodeFetch, version);
