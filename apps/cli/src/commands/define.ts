import type { OperationName, OperationOutput } from "@cairn/core";
import { isPlainObject } from "@cairn/core/json";
import type { Command } from "commander";
import { fieldLines } from "../format.js";
import { fieldOf, operationMeta } from "../metadata.js";
import { flagsOf, optionFor } from "./fields.js";
import { type CommandContext, JSON_HELP, type OperationHandling, runOperation } from "./run.js";

/** A command line that sends one input: the words after `cairn`, and standard input if any. */
export interface CommandLine {
  args: string[];
  stdin?: string;
  /** The answer is NDJSON lines (export), not one JSON document. */
  ndjson?: boolean;
  /** The exit code of a success, when it depends on the answer (`cairn doctor` exits 1 on a warning). */
  successExit?(data: unknown): number;
}

/** How the CLI offers one core operation. The catalog holds one per operation, or null. */
export interface CliCommand<N extends OperationName> {
  operation: N;
  /** The words that run it: ["read"], ["token", "create"]. */
  words: readonly string[];
  /** Adds the command under its parent; called only when it may run or be listed in help. */
  register(parent: Command, ctx: CommandContext): Promise<void>;
  /**
   * The `--json` command line that sends this input, or null when the CLI cannot spell it
   * (the parity suite drives every operation through this).
   */
  commandLine(input: unknown): Promise<CommandLine | null>;
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

export interface OperationCommandSpec<N extends OperationName> extends OperationHandling<N> {
  words: readonly string[];
  args?: readonly ArgSpec[];
  options?: readonly OptionSpec[];
  /** Overrides the operation's description as the one-line summary. */
  summary?: string;
  examples: readonly string[];
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
    async commandLine(input) {
      if (!isPlainObject(input)) return null;
      const op = await operationMeta(operation);
      const rest = new Map(Object.entries(input).filter(([, v]) => v !== undefined));
      const args: string[] = [...spec.words];
      for (const arg of spec.args ?? []) {
        const value = rest.get(arg.field);
        rest.delete(arg.field);
        if (value === undefined) continue;
        if (typeof value !== "string") return null;
        args.push(...(arg.variadic ? value.split(" ") : [value]));
      }
      for (const o of spec.options ?? []) {
        const value = rest.get(o.field);
        rest.delete(o.field);
        if (value === undefined) continue;
        const info = fieldOf(op, o.field);
        const flag = (o.flags ?? flagsOf(info)).split(/[ ,]/)[0] as string;
        if (info.kind === "boolean") {
          if (value === true) args.push(flag);
          else if (value !== false) return null;
        } else if (info.kind === "list" && Array.isArray(value)) {
          for (const v of value) args.push(flag, String(v));
        } else if (info.kind === "json") args.push(flag, JSON.stringify(value));
        else if (typeof value === "object") return null;
        else args.push(flag, String(value));
      }
      // A field the command has no argument or option for cannot be sent from the command line.
      if (rest.size > 0) return null;
      const exitCode = spec.exitCode;
      return { args: [...args, "--json"], ...(exitCode && { successExit: (data: unknown) => exitCode(data as OperationOutput<N>) }) };
    },
    async register(parent, ctx) {
      const op = await operationMeta(operation);
      const cmd = parent.command(spec.words.at(-1) as string).description(spec.summary ?? op.description);
      for (const arg of spec.args ?? []) {
        const { description } = fieldOf(op, arg.field);
        const syntax = `${arg.name}${arg.variadic ? "..." : ""}`;
        cmd.argument(arg.optional || arg.variadic ? `[${syntax}]` : `<${syntax}>`, description);
      }
      const options = (spec.options ?? []).map((o) => ({ field: o.field, option: optionFor(fieldOf(op, o.field), o.flags) }));
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
        await runOperation(ctx, operation, spec, input, values.json === true);
      });
    },
  };
}

/** A top-level field of any kind, as a human line (objects as JSON). */
const shown = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/**
 * The command of an operation the catalog does not name: `cairn <name in words>`
 * (`thing_do` → `cairn thing do`), every input field a flag described by its schema, and
 * the answer's top-level fields as lines. A new operation reaches the CLI this way
 * without an edit here; a hand-written entry in CLI_COMMANDS replaces it when the
 * spelling matters.
 */
export async function genericCommand<N extends OperationName>(operation: N): Promise<CliCommand<N>> {
  const { fields } = await operationMeta(operation);
  return operationCommand(operation, {
    words: operation.split("_"),
    options: fields.map((f) => ({ field: f.name })),
    examples: [`cairn ${operation.split("_").join(" ")} --json`],
    human(data, printer) {
      if (!isPlainObject(data)) return printer.out(shown(data));
      for (const line of fieldLines(Object.entries(data).map(([k, v]) => [k, shown(v)] as const))) printer.out(line);
    },
  });
}
