import { isPlainObject } from "@cairn/core/json";
import type { Command } from "commander";
import { CliFailure } from "../failure.js";
import { fieldOf, operationMeta } from "../metadata.js";
import { type CliCommand, examplesHelp } from "./define.js";
import { fail, JSON_HELP, runWithClient } from "./run.js";

/** `cairn assign ID NAME` names who must act; `cairn assign ID --none` clears it (human tokens only). */
export const assignCommand: CliCommand<"artifact_assign"> = {
  operation: "artifact_assign",
  words: ["assign"],
  async commandLine(input) {
    if (!isPlainObject(input) || typeof input.id !== "string" || Object.keys(input).some((k) => k !== "id" && k !== "assignee")) {
      return null;
    }
    if (input.assignee === null) return { args: ["assign", input.id, "--none", "--json"] };
    return typeof input.assignee === "string" ? { args: ["assign", input.id, input.assignee, "--json"] } : null;
  },
  async register(parent: Command, ctx) {
    const op = await operationMeta("artifact_assign");
    const cmd = parent
      .command("assign")
      .description(op.description)
      .argument("<ID>", fieldOf(op, "id").description)
      .argument("[NAME]", "The user who must act: a bare user name such as sam.")
      .option("--none", "Assign nobody.")
      .option("--json", JSON_HELP)
      .addHelpText("after", examplesHelp(["cairn assign art_06h2k3m4n5p6q7r8s9t0v1w2x3 sam", "cairn assign art_06h2k3m4n5p6q7r8s9t0v1w2x3 --none"]));
    cmd.action(async (id: string, name: string | undefined, opts: Record<string, unknown>) => {
      const json = opts.json === true;
      if ((name === undefined) === (opts.none !== true)) {
        fail(ctx, CliFailure.usage("Give a user NAME or --none (one of them)."), json);
        return;
      }
      await runWithClient(ctx, json, async (client, printer) => {
        const answer = await client.call("artifact_assign", { id, assignee: name ?? null });
        if (json) printer.out(answer.text);
        else {
          const a = answer.data;
          printer.out(a.assignee === null ? `Nobody is assigned to ${a.id}: ${a.title}` : `Assigned ${a.id} to ${a.assignee}: ${a.title}`);
          printer.out(a.url);
        }
      });
    });
  },
};
