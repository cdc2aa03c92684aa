import { nodeFetch } from "./client/transport.js";
import { processIo } from "./io.js";
import { main } from "./main.js";

/**
 * Runs any command line but the quick ones bin.ts hands to quick.ts. The process commands
 * (`serve`, `worker`, `mcp`) import what they need when they run and return undefined:
 * they keep the process. A client command returns its exit code.
 */
export async function runCommandLine(argv: readonly string[], version: string): Promise<number | undefined> {
  if (argv[0] === "serve" && argv.length === 1) {
    const { runServe } = await import("./commands/serve.js");
    await runServe(version);
  } else if (argv[0] === "worker" && argv.length === 1) {
    const { runWorker } = await import("./commands/worker.js");
    await runWorker(version);
  } else if (argv[0] === "backup" || argv[0] === "restore") {
    const { runBackup, runRestore } = await import("./commands/backup.js");
    return argv[0] === "backup" ? runBackup(argv.slice(1)) : runRestore(argv.slice(1));
  } else if (argv[0] === "mcp" && argv.length === 1) {
    const { runMcp } = await import("./commands/mcp.js");
    await runMcp(version);
  } else return main(argv, processIo(), nodeFetch, version);
  return undefined;
}
