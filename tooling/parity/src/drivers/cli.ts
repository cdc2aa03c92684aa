import { isPlainObject } from "@cairn/core/json";
import { exitCodeOf } from "@cairn/cli";
import { runNode } from "@cairn/core/testing";
import type { Actor, Driver, Outcome } from "../types.js";
import { cliEnv, requireBuiltCli } from "./cli-bin.js";

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
export function outcomeOfCliRun(command: string, ran: Ran): Outcome {
  let answer: unknown;
  try {
    answer = JSON.parse(ran.stdout);
  } catch {
    throw new Error(`\`cairn ${command}\` exited ${ran.code} and printed no JSON on stdout; stderr: ${ran.stderr.trim().slice(0, 500)}`);
  }
  const isError = isPlainObject(answer) && Object.keys(answer).join() === "error" && isPlainObject(answer.error);
  const outcome: Outcome = isError ? { ok: false, error: (answer as { error: never }).error } : { ok: true, value: answer };
  const exit = outcome.ok ? 0 : exitCodeOf(outcome.error.code);
  if (ran.code !== exit) {
    const said = outcome.ok ? "a success" : `error code ${outcome.error.code}`;
    throw new Error(`\`cairn ${command}\` exited ${ran.code} for ${said}; the documented exit code is ${exit}`);
  }
  return outcome;
}

/** The built `cairn` binary, one process per command, as the actor (CAIRN_URL/CAIRN_TOKEN). */
export function cliDriver(baseUrl: string): Driver {
  const bin = requireBuiltCli();
  const cairn = async (actor: Actor, args: string[], stdin = ""): Promise<Outcome> =>
    outcomeOfCliRun(args[0] as string, await run(bin, [...args, "--json"], cliEnv(baseUrl, actor.token), stdin));
  return {
    name: "cli",
    surface: "cli",
    createReceipt: (actor, input) => cairn(actor, ["receipt", "--from", "-"], JSON.stringify(input)),
    read: (actor, id) => cairn(actor, ["read", id]),
    search: (actor, query) => cairn(actor, ["search", ...(query.q ? [query.q] : []), ...(query.tag ? ["--tag", query.tag] : [])]),
  };
}
