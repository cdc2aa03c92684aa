import { type HttpFetch, nodeFetch } from "./client/transport.js";
import type { CliIo } from "./io.js";
import { runQuickLine } from "./quick.js";
import { quickLineOf } from "./quick-line.js";

/**
 * Runs one client command line (everything but `serve` and `mcp`) and returns its exit
 * code. The process's streams, environment and fetch are parameters, so tests drive the
 * CLI in-process exactly as `bin.ts` does. A line quick.ts knows runs without loading
 * the program (commander and every command's definition); any other goes through it.
 */
export async function main(argv: readonly string[], io: CliIo, fetchImpl: HttpFetch = nodeFetch, version = "0.0.0"): Promise<number> {
  const quick = quickLineOf(argv);
  if (quick) return runQuickLine(quick, io, fetchImpl, version);
  const { runProgram } = await import("./program.js");
  return runProgram(argv, io, fetchImpl, version);
}
