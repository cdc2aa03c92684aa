#!/usr/bin/env node
import { createRequire } from "node:module";
import { Command, CommanderError } from "commander";
import { EXIT, EXIT_CODES_HELP } from "./exit-codes.js";

// Keep this file light: every command imports what it needs when it runs.
const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

const HELP_AFTER = `
Environment:
  CAIRN_URL     the server the client commands talk to
                (default: the url in $CAIRN_HOME/credentials, else http://127.0.0.1:7373)
  CAIRN_TOKEN   bearer token (default: the token in $CAIRN_HOME/credentials, sent only to that url)
  CAIRN_HOME    local state: credentials file, embedded data (default ~/.cairn)
  DATABASE_URL, HOST, PORT, CAIRN_PUBLIC_URL configure \`cairn serve\`

Examples:
  $ cairn serve
  $ cairn receipt --from receipt.yaml --details notes.md --tag nightly
  $ cairn receipt --dry-run --from receipt.json
  $ cairn search --tag receipt
  $ cairn retain art_06h2k3m4n5p6q7r8s9t0v1w2x3

${EXIT_CODES_HELP}
  (cairn serve exits 1 when it cannot start)
`;

const program = new Command()
  .name("cairn")
  .description("Structured receipts from agents and scripts, and the server that keeps them.")
  .version(version, "-v, --version")
  .exitOverride()
  .addHelpText("after", HELP_AFTER);

program
  .command("serve")
  .description("Run the Cairn server (REST API, docs) on HOST:PORT. Uses DATABASE_URL, or the embedded store in $CAIRN_HOME.")
  .action(async () => {
    const { runServe } = await import("./commands/serve.js");
    await runServe(version);
  });

program
  .command("worker")
  .description("Deliver webhooks and run scheduled jobs, without serving HTTP. Needs DATABASE_URL; run as many as you like.")
  .action(async () => {
    const { runWorker } = await import("./commands/worker.js");
    await runWorker(version);
  });

program
  .command("mcp")
  .description("Serve MCP on stdio for an agent, forwarding to the Cairn server at CAIRN_URL with CAIRN_TOKEN (or $CAIRN_HOME/credentials).")
  .action(async () => {
    const { runMcp } = await import("./commands/mcp.js");
    await runMcp(version);
  });

// A reader that goes away (`cairn export | head`) is not an error.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});

const argv = process.argv.slice(2);
const onlyVersion = argv.length === 1 && (argv[0] === "-v" || argv[0] === "--version");
const ownCommand = program.commands.some((c) => argv[0] === c.name());
// The client commands (commands/catalog.ts) load schemas, so `--version` and `serve` skip them.
if (!onlyVersion && !ownCommand) {
  const { registerClientCommands } = await import("./commands/index.js");
  await registerClientCommands(program, argv, { version });
}

const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write("", () => resolve()));

try {
  await program.parseAsync();
  if (!ownCommand) {
    // A client command is done here; fetch's connection pool would hold the process open
    // for a few hundred milliseconds more, which scripts calling cairn in a loop feel.
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    process.exit(process.exitCode ?? EXIT.ok);
  }
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage);
  console.error(`cairn: ${(err as Error).message}`);
  process.exit(1);
}
