import { Command, CommanderError } from "commander";
import { type HttpFetch, nodeFetch } from "./client/transport.js";
import { registerClientCommands } from "./commands/index.js";
import { LOCAL_COMMANDS, registerLocalCommands } from "./commands/login.js";
import type { CommandContext } from "./commands/run.js";
import { EXIT, EXIT_CODES_HELP } from "./exit-codes.js";
import type { CliIo } from "./io.js";

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

/** The process-bound commands (`serve`, `worker`, `mcp`); `cli.ts` runs them, `main` only lists them in help. */
export const PROCESS_COMMANDS = {
  serve: "Run the Cairn server (REST API, docs) on HOST:PORT. Uses DATABASE_URL, or the embedded store in $CAIRN_HOME.",
  worker: "Deliver webhooks and run scheduled jobs, without serving HTTP. Needs DATABASE_URL; run as many as you like.",
  backup: "cairn backup --out FILE: a consistent copy while the server runs (embedded store: from the running cairn serve; PostgreSQL: pg_dump).",
  restore: "cairn restore FILE: fill an empty CAIRN_HOME (or the empty database at DATABASE_URL) from a backup; a non-empty one is refused.",
  mcp: "Serve MCP on stdio for an agent, forwarding to the Cairn server at CAIRN_URL with CAIRN_TOKEN (or $CAIRN_HOME/credentials).",
} as const;

/** The `cairn` program with its help text; output goes to `io`, and parsing errors throw instead of exiting. */
export function cairnProgram(version: string, io: Pick<CliIo, "out" | "err">): Command {
  const program = new Command()
    .name("cairn")
    .description("Structured receipts from agents and scripts, and the server that keeps them.")
    .version(version, "-v, --version")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, "")), writeErr: (s) => io.err(s.replace(/\n$/, "")) })
    .addHelpText("after", HELP_AFTER);
  for (const [name, description] of Object.entries(PROCESS_COMMANDS)) program.command(name).description(description);
  return program;
}

/** Runs one client command line through the program (commander): what `main` does with every line but the quick ones (quick.ts). */
export async function runProgram(argv: readonly string[], io: CliIo, fetchImpl: HttpFetch = nodeFetch, version = "0.0.0"): Promise<number> {
  const ctx: CommandContext = { version, io, fetch: fetchImpl, exitCode: EXIT.ok };
  const program = cairnProgram(version, io);
  const onlyVersion = argv.length === 1 && (argv[0] === "-v" || argv[0] === "--version");
  const first = argv.find((a) => !a.startsWith("-"));
  if (first !== undefined && Object.hasOwn(LOCAL_COMMANDS, first)) registerLocalCommands(program, ctx);
  else if (!onlyVersion) {
    registerLocalCommands(program, ctx);
    await registerClientCommands(program, argv, ctx);
  }
  try {
    await program.parseAsync([...argv], { from: "user" });
    return ctx.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    io.err(`cairn: ${(err as Error).message}`);
    return EXIT.rejected;
  }
}
