import type { OperationName } from "@cairn/core";
import type { Command } from "commander";
import { operationMeta, operationNamesOf } from "../metadata.js";
import { CLI_COMMANDS, GROUPS } from "./catalog.js";
import { type CliCommand, genericCommand } from "./define.js";
import type { CommandContext } from "./run.js";

function parentFor(program: Command, words: readonly string[]): Command {
  if (words.length === 1) return program;
  const group = words[0] as string;
  const found = program.commands.find((c) => c.name() === group);
  // A command that also has subcommands (`cairn drops`, `cairn drops dismiss`): options after
  // the subcommand's name are the subcommand's, not read by the command before it.
  // The program must split its words positionally too, or it hands the subcommand's options to the command.
  if (found) {
    program.enablePositionalOptions();
    return found.enablePositionalOptions();
  }
  return program.command(group).description(GROUPS[group] ?? `${group} commands.`);
}

/** The CLI's command for an operation: the catalog's, the generated one when the catalog has none, or null when core keeps the operation off the CLI (`notOn.cli`). */
export async function cliCommandOf<N extends OperationName>(operation: N): Promise<CliCommand<N> | null> {
  if (!(await operationMeta(operation)).onCli) return null;
  return (CLI_COMMANDS[operation] as CliCommand<N> | undefined) ?? genericCommand(operation);
}

/** Every command: the catalog's, then generated ones for operations it does not name. */
async function allCommands(): Promise<CliCommand<OperationName>[]> {
  const commands = await Promise.all((await operationNamesOf()).map((name) => cliCommandOf(name)));
  return commands.filter((c): c is CliCommand<OperationName> => c !== null);
}

/**
 * Adds the client commands: only the command named on the command line when the catalog
 * names it; help, an unknown word or a generated command builds them all. Built, they read
 * core's metadata from the table the build wrote (metadata.ts), so neither loads core.
 */
export async function registerClientCommands(program: Command, argv: readonly string[], ctx: CommandContext): Promise<void> {
  const first = argv.find((a) => !a.startsWith("-"));
  // Widened first: the union over every operation's command is too large for a type predicate to check.
  const entries = Object.values(CLI_COMMANDS) as Array<CliCommand<OperationName> | undefined>;
  const catalogued = entries.filter((c): c is CliCommand<OperationName> => c !== undefined);
  const named = catalogued.filter((c) => c.words[0] === first);
  for (const command of named.length > 0 ? named : await allCommands()) {
    await command.register(parentFor(program, command.words), ctx);
  }
}
