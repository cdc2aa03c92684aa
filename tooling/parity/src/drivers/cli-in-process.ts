import { type CliIo, cliCommandOf, main } from "@cairn/cli";
import type { Actor, Driver } from "../types.js";
import { outcomeOfCliRun } from "./cli.js";

/**
 * The CLI through `main`, the entry the binary runs, in this process: it sees the
 * registry as this process has it (an operation a test added), which a spawned binary
 * cannot. Same command lines and the same contract checks as the `cli` driver.
 */
export function cliInProcessDriver(baseUrl: string): Driver {
  return {
    name: "cli-in-process",
    surface: "cli",
    async call(actor: Actor, operation, input) {
      const line = await (await cliCommandOf(operation))?.commandLine(input);
      if (!line) return null;
      const out: string[] = [];
      const err: string[] = [];
      const io: CliIo = {
        out: (text) => void out.push(`${text}\n`),
        err: (text) => void err.push(`${text}\n`),
        write: async (text) => void out.push(text),
        progress: (text) => void err.push(text),
        stdin: (async function* () {
          if (line.stdin) yield Buffer.from(line.stdin, "utf8");
        })(),
        stdinIsTty: false,
        stderrIsTty: false,
        env: { CAIRN_URL: baseUrl, CAIRN_TOKEN: actor.token, CAIRN_HOME: "/nonexistent-cairn-home" },
      };
      const code = await main(line.args, io, fetch, "parity");
      return outcomeOfCliRun(operation, { code, stdout: out.join(""), stderr: err.join("") }, line);
    },
  };
}
