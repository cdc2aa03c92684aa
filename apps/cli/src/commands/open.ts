import type { Command } from "commander";
import { openInBrowser } from "../browser.js";
import { fieldOf, operationMeta } from "../metadata.js";
import type { CliCommand } from "./define.js";
import { examplesHelp } from "./define.js";
import { type CommandContext, JSON_HELP, runWithClient } from "./run.js";

const EXAMPLES = ["cairn open", "cairn open art_06h2k3m4n5p6q7r8s9t0v1w2x3", "cairn open --no-browser   # print the link only"];

/**
 * `cairn open [ID]`: a one-time sign-in link to the web (the bin, or one artifact), printed
 * and opened in a browser when one is there. Printing comes first, so a machine with no
 * browser (SSH, a container) still gets a link to paste elsewhere, and the command never
 * fails for lack of one.
 */
export const openCommand: CliCommand<"signin_link_create"> = {
  operation: "signin_link_create",
  words: ["open"],
  async commandLine(input) {
    const { id, ...rest } = (input ?? {}) as { id?: unknown };
    if (Object.keys(rest).length > 0 || (id !== undefined && typeof id !== "string")) return null;
    return { args: ["open", ...(typeof id === "string" ? [id] : []), "--no-browser", "--json"] };
  },
  async register(parent: Command, ctx: CommandContext) {
    const op = await operationMeta("signin_link_create");
    parent
      .command("open")
      .description(`Sign in to the web without pasting a token. ${op.description}`)
      .argument("[id]", fieldOf(op, "id").description)
      .option("--no-browser", "Print the link only.")
      .option("--json", JSON_HELP)
      .addHelpText("after", examplesHelp(EXAMPLES))
      .action(async (id: string | undefined, opts: { browser: boolean; json?: boolean }) => {
        const json = opts.json === true;
        await runWithClient(ctx, json, async (client, printer) => {
          const answer = await client.call("signin_link_create", id === undefined ? {} : { id });
          if (json) printer.out(answer.text);
          else printer.out(answer.data.url);
          const opened = opts.browser && openInBrowser(answer.data.url, ctx.io.env);
          printer.err(
            `${opened ? "Opened in your browser" : "Open it in a browser"}: it signs you in once, until ${answer.data.expires_at.slice(11, 16)} UTC, and lands on ${answer.data.next}.`,
          );
        });
      });
  },
};
