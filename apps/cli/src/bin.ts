#!/usr/bin/env node
import { createRequire } from "node:module";
import { processIo } from "./io.js";
import { main } from "./main.js";

// Keep this file light: every command imports what it needs when it runs.
const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

// A reader that goes away (`cairn export | head`) is not an error.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});

const argv = process.argv.slice(2);
const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write("", () => resolve()));

try {
  if (argv[0] === "serve" && argv.length === 1) {
    const { runServe } = await import("./commands/serve.js");
    await runServe(version);
  } else if (argv[0] === "worker" && argv.length === 1) {
    const { runWorker } = await import("./commands/worker.js");
    await runWorker(version);
  } else if (argv[0] === "mcp" && argv.length === 1) {
    const { runMcp } = await import("./commands/mcp.js");
    await runMcp(version);
  } else {
    const code = await main(argv, processIo(), fetch, version);
    // A client command is done here; fetch's connection pool would hold the process open
    // for a few hundred milliseconds more, which scripts calling cairn in a loop feel.
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    process.exit(code);
  }
} catch (err) {
  console.error(`cairn: ${(err as Error).message}`);
  process.exit(1);
}
