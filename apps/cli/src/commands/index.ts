import type { OperationName } from "@cairn/core";
import type { Command } from "commander";
import { CLI_COMMANDS, GROUPS } from "./catalog.js";
import type { CliCommand } from "./define.js";
import type { CommandContext } from "./run.js";

function parentFor(program: Command, words: readonly string[]): Command {
  if (words.length === 1) return program;
  const group = words[0] as string;
  return (
    program.commands.find((c) => c.name() === group) ??
    program.command(group).description(GROUPS[group] ?? `${group} commands.`)
  );
}

/**
 * Adds the client commands. Building a command loads its operation's schema (zod), so
 * only the command named on the command line is built; help, or an unknown word, builds
 * them all.
 */
export async function registerClientCommands(program: Command, argv: readonly string[], ctx: CommandContext): Promise<void> {
  const entries = Object.values(CLI_COMMANDS) as Array<CliCommand<OperationName> | null>;
  const all = entries.filter((c): c is CliCommand<OperationName> => c !== null);
  const first = argv.find((a) => !a.startsWith("-"));
  const named = all.filter((c) => c.words[0] === first);
  for (const command of named.length > 0 ? named : all) {
    await command.register(parentFor(program, command.words), ctx);
  }
}
