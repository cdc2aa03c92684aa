import { isPlainObject } from "@cairn/core/json";
import type { Command } from "commander";
import { EXIT } from "../exit-codes.js";
import { CliFailure } from "../failure.js";
import type { CliIo } from "../io.js";
import { fieldOf, operationMeta } from "../metadata.js";
import type { CliCommand } from "./define.js";
import { examplesHelp } from "./define.js";
import { optionFor } from "./fields.js";
import { runWithClient } from "./run.js";

const EXAMPLES = [
  "cairn export --tag receipt > receipts.ndjson",
  "cairn export --format in-toto --tag audit > audit.intoto.jsonl",
  "cairn export | jq -r 'select(.metadata.human_action != \"Nothing\") | .url'",
];

/** Progress for people: a live counter on a terminal, a line per thousand in a log. */
function progressReporter(io: CliIo): { tick(count: number): void; done(count: number): void } {
  const tty = io.stderrIsTty;
  let last = 0;
  return {
    tick(count) {
      if (tty && Date.now() - last > 200) {
        last = Date.now();
        io.progress(`\rExported ${count}…`);
      } else if (!tty && count % 1000 === 0) {
        io.err(`Exported ${count}…`);
      }
    },
    done(count) {
      if (tty) io.progress("\r");
      io.err(`Exported ${count} artifact${count === 1 ? "" : "s"}.`);
    },
  };
}

/**
 * Copies the NDJSON stream to stdout line by line, each line exactly as the server sent
 * it. A transfer that breaks off is a failure: the output is incomplete, and says so.
 */
async function copyLines(io: CliIo, body: AsyncIterable<Uint8Array>, progress: ReturnType<typeof progressReporter>): Promise<number> {
  const decoder = new TextDecoder();
  let pending = "";
  let count = 0;
  try {
    for await (const chunk of body) {
      pending += decoder.decode(chunk, { stream: true });
      const end = pending.lastIndexOf("\n");
      if (end < 0) continue;
      const complete = pending.slice(0, end + 1);
      pending = pending.slice(end + 1);
      await io.write(complete);
      for (let i = complete.indexOf("\n"); i >= 0; i = complete.indexOf("\n", i + 1)) progress.tick(++count);
    }
  } catch {
    throw new CliFailure(
      EXIT.unreachable,
      `the export broke off after ${count} artifact${count === 1 ? "" : "s"}: the connection to the server was lost. The output is incomplete.`,
    );
  }
  pending += decoder.decode();
  if (pending.length > 0) {
    await io.write(`${pending}\n`);
    progress.tick(++count);
  }
  return count;
}

/** `cairn export`: every artifact you can read, as NDJSON on stdout, straight from the stream. */
export const exportCommand: CliCommand<"artifact_export"> = {
  operation: "artifact_export",
  words: ["export"],
  async commandLine(input) {
    if (!isPlainObject(input) || Object.keys(input).some((k) => k !== "tag")) return null;
    return { args: ["export", ...(typeof input.tag === "string" ? ["--tag", input.tag] : []), "--json"], ndjson: true };
  },
  async register(parent: Command, ctx) {
    const op = await operationMeta("artifact_export");
    parent
      .command("export")
      .description(
        "Write every artifact you can read (optionally one tag), newest first, to stdout as NDJSON: one REST artifact object per line, or with --format in-toto one signed DSSE envelope per receipt (check with `cairn verify`). Progress goes to stderr.",
      )
      .addOption(optionFor(fieldOf(op, "tag"), "--tag <tag>"))
      .addOption(optionFor(fieldOf(op, "format"), "--format <format>"))
      .option("--json", "Accepted for symmetry (the output is always NDJSON); on failure, the REST error object on stdout.")
      .addHelpText("after", examplesHelp(EXAMPLES))
      .action(async (opts: { tag?: string; format?: string; json?: boolean }) => {
        await runWithClient(ctx, opts.json === true, async (client) => {
          const res = await client.open("artifact_export", { tag: opts.tag, format: opts.format });
          const progress = progressReporter(ctx.io);
          const count = res.body ? await copyLines(ctx.io, res.body, progress) : 0;
          progress.done(count);
        });
      });
  },
};
