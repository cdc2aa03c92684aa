#!/usr/bin/env node
import { createRequire } from "node:module";
import { nodeFetch } from "./client/transport.js";
import { processIo } from "./io.js";
import { main } from "./main.js";

// The client commands are imported here; serve, worker and mcp import what they need when they run.
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
    const code = await main(argv, processIo(), nodeFetch, version);
    // A client command is done here; a kept-alive connection would hold the process open
    // a while longer, which scripts calling cairn in a loop feel.
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    process.exit(code);
  }
} catch (err) {
  console.error(`cairn: ${(err as Error).message}`);
  process.exit(1);
}
