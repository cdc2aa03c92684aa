import { type CommandLine, cliCommandOf, exitCodeOf } from "@cairn/cli";
import { isPlainObject } from "@cairn/core/json";
import { runNode } from "@cairn/core/testing";
import type { Actor, Driver, Outcome } from "../types.js";
import { cliEnv, requireBuiltCli } from "./cli-bin.js";
import { ndjsonPage } from "./ndjson.js";

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

const run = (bin: string, args: string[], env: Record<string, string>, input: string): Promise<Ran> => runNode([bin, ...args], { env, input });

/**
 * `--json` output as an Outcome, checked against the CLI's contract: stdout is the REST
 * answer, or on failure the REST error object `{error: {...}}`; the exit code is the one
 * the CLI documents for that answer. Anything else throws, reported against this surface.
 */
export function outcomeOfCliRun(command: string, ran: Ran, line: Pick<CommandLine, "ndjson" | "successExit"> = {}): Outcome {
  let answer: unknown;
  try {
    answer = line.ndjson && ran.code === 0 ? ndjsonPage(ran.stdout) : JSON.parse(ran.stdout);
  } catch {
    throw new Error(`\`cairn ${command}\` exited ${ran.code} and printed no JSON on stdout; stderr: ${ran.stderr.trim().slice(0, 500)}`);
  }
  const isError = isPlainObject(answer) && Object.keys(answer).join() === "error" && isPlainObject(answer.error);
  const outcome: Outcome = isError ? { ok: false, error: (answer as { error: never }).error } : { ok: true, value: answer };
  const exit = outcome.ok ? (line.successExit?.(outcome.value) ?? 0) : exitCodeOf(outcome.error.code);
  if (ran.code !== exit) {
    const said = outcome.ok ? "a success" : `error code ${outcome.error.code}`;
    throw new Error(`\`cairn ${command}\` exited ${ran.code} for ${said}; the documented exit code is ${exit}`);
  }
  return outcome;
}

/**
 * The built `cairn` binary, one process per command, as the actor (CAIRN_URL/CAIRN_TOKEN).
 * The command line is the CLI's own spelling of the input (`commandLine`), so every
 * operation the CLI offers is driven without a line here per operation.
 */
export function cliDriver(baseUrl: string): Driver {
  const bin = requireBuiltCli();
  return {
    name: "cli",
    surface: "cli",
    async call(actor: Actor, operation, input) {
      const line = await (await cliCommandOf(operation))?.commandLine(input);
      if (!line) return null;
      const ran = await run(bin, line.args, cliEnv(baseUrl, actor.token), line.stdin ?? "");
      return outcomeOfCliRun(
        line.args
          .filter((a) => !a.startsWith("-"))
          .slice(0, 2)
          .join(" "),
        ran,
        line,
      );
    },
  };
}
