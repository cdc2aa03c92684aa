#!/usr/bin/env node
import { quickLineOf } from "./quick-line.js";

// The build makes this file the CommonJS binary dist/bin.cjs (scripts/bundle.mjs): a
// CommonJS entry does not start Node's ES module loader, which `cairn read ID` would wait
// on for nothing (docs/adr/0070). So: no top-level await here, `require` for the quick
// path's CommonJS bundle, and `import()` only for the rest of the CLI.
const { version } = require("../package.json") as { version: string };

// A reader that goes away (`cairn export | head`) is not an error.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});

const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write("", () => resolve()));

// `cairn read ID` loads quick.cjs, one module with only what it runs; every other line
// loads the rest of the CLI (cli.ts). This file holds nothing else (docs/adr/0067).
async function main(argv: string[]): Promise<void> {
  const quick = quickLineOf(argv);
  try {
    const code = quick
      ? await (require("./quick.cjs") as typeof import("./quick.js")).runQuickInProcess(quick, version)
      : await (await import("./cli.js")).runCommandLine(argv, version);
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
}

void main(process.argv.slice(2));
