import type { OperationName, OperationOutput } from "@cairn/core";
import type { Command } from "commander";
import type { Printer } from "../output.js";
import { describeField, optionFor } from "./fields.js";
import { type CommandContext, JSON_HELP, runWithClient } from "./run.js";

/** How the CLI offers one core operation. The catalog holds one per operation, or null. */
export interface CliCommand<N extends OperationName> {
  operation: N;
  /** The words that run it: ["read"], ["token", "create"]. */
  words: readonly string[];
  /** Adds the command under its parent; called only when it may run or be listed in help. */
  register(parent: Command, ctx: CommandContext): Promise<void>;
}

export interface ArgSpec {
  /** Input field the argument fills. */
  field: string;
  /** Name shown in usage, e.g. ID or WORDS. */
  name: string;
  /** Takes the rest of the words, joined by spaces. */
  variadic?: boolean;
  optional?: boolean;
}

export interface OptionSpec {
  field: string;
  /** Commander flags when the default `--field-name <field_name>` does not read well. */
  flags?: string;
}

export interface OperationCommandSpec<N extends OperationName> {
  words: readonly string[];
  args?: readonly ArgSpec[];
  options?: readonly OptionSpec[];
  /** Overrides the operation's description as the one-line summary. */
  summary?: string;
  examples: readonly string[];
  /** Human output of a success; --json prints the REST answer verbatim instead. */
  human(data: OperationOutput<N>, printer: Printer): void;
  /** Exit code of a success, with or without --json (e.g. `cairn doctor` exits 1 on a warning). */
  exitCode?(data: OperationOutput<N>): number;
}

export function examplesHelp(examples: readonly string[]): string {
  return `\nExamples:\n${examples.map((e) => `  $ ${e}`).join("\n")}\n`;
}

/**
 * A command generated from a core operation: arguments and options are fields of the
 * operation's input, described by the schema's own text, and the request goes to the
 * operation's REST route.
 */
export function operationCommand<N extends OperationName>(operation: N, spec: OperationCommandSpec<N>): CliCommand<N> {
  return {
    operation,
    words: spec.words,
    async register(parent, ctx) {
      const { OPERATIONS } = await import("@cairn/core");
      const op = OPERATIONS[operation];
      const cmd = parent.command(spec.words.at(-1) as string).description(spec.summary ?? op.description);
      for (const arg of spec.args ?? []) {
        const { description } = describeField(op.input, arg.field);
        const syntax = `${arg.name}${arg.variadic ? "..." : ""}`;
        cmd.argument(arg.optional || arg.variadic ? `[${syntax}]` : `<${syntax}>`, description);
      }
      const options = (spec.options ?? []).map((o) => ({ field: o.field, option: optionFor(op.input, o.field, o.flags) }));
      for (const { option } of options) cmd.addOption(option);
      cmd.option("--json", JSON_HELP);
      cmd.addHelpText("after", examplesHelp(spec.examples));
      cmd.action(async () => {
        const values = cmd.opts();
        const input: Record<string, unknown> = {};
        (spec.args ?? []).forEach((arg, i) => {
          const value = cmd.processedArgs[i] as string | string[] | undefined;
          const joined = Array.isArray(value) ? value.join(" ") : value;
          if (joined !== undefined && joined !== "") input[arg.field] = joined;
        });
        for (const { field, option } of options) {
          const value = values[option.attributeName()];
          if (value !== undefined) input[field] = value;
        }
        await runWithClient(ctx, values.json === true, async (client, printer) => {
          const answer = await client.call(operation, input);
          if (values.json === true) printer.out(answer.text);
          else spec.human(answer.data, printer);
          return spec.exitCode?.(answer.data);
        });
      });
    },
  };
}
