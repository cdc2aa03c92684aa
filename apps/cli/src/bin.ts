#!/usr/bin/env node
import { quickLineOf } from "./quick-line.js";

/** Written by the build into the binary (scripts/bundle.mjs); read from package.json when run unbundled. */
declare const CAIRN_VERSION: string | undefined;
const version =
  typeof CAIRN_VERSION === "string"
    ? CAIRN_VERSION
    : ((await import("node:module")).createRequire(import.meta.url)("../package.json") as { version: string }).version;

// A reader that goes away (`cairn export | head`) is not an error.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});

const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write("", () => resolve()));

// `cairn read ID` loads quick.js, one module with only what it runs; every other line
// loads the rest of the CLI (cli.ts). This file holds nothing else (docs/adr/0067).
const argv = process.argv.slice(2);
const quick = quickLineOf(argv);
try {
  const code = quick ? await (await import("./quick.js")).runQuickInProcess(quick, version) : await (await import("./cli.js")).runCommandLine(argv, version);
  if (code !== undefined) {
    // A client command is done here; a kept-alive connection would hold the process open
    // a while longer, which scripts calling cairn in a loop feel.
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    process.exit(code);
  }
} catch (err) {
  console.error(`cairn: ${(err as Error).message}`);
  process.exit(1);
}
