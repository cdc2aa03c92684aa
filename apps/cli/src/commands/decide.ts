import { isPlainObject } from "@cairn/core/json";
import type { Command } from "commander";
import { CliFailure } from "../failure.js";
import { askLines, askViewOf } from "../light.js";
import { fieldOf, operationMeta } from "../metadata.js";
import { type CliCommand, examplesHelp, operationCommand } from "./define.js";
import { fail, JSON_HELP, runWithClient } from "./run.js";

export const decideCommand = operationCommand("artifact_decide", {
  words: ["decide"],
  args: [
    { field: "id", name: "ID" },
    { field: "option", name: "OPTION" },
  ],
  options: [{ field: "comment", flags: "--comment <text>" }],
  summary: "Answer a receipt's ask with one of its options, and a comment when it takes one (human tokens only; the first answer is final).",
  examples: ["cairn decide art_06h2k3m4n5p6q7r8s9t0v1w2x3 approve", 'cairn decide art_06h2k3m4n5p6q7r8s9t0v1w2x3 reject --comment "Not before the freeze"'],
  human(a, printer) {
    printer.out(`${a.id}: ${a.title}`);
    const view = askViewOf(a);
    for (const line of view ? askLines(view) : []) printer.out(line);
    printer.out(a.url);
  },
});

/** `cairn wait`'s exit codes (its own, documented beside the others): scripts branch on them. */
export const WAIT_EXIT = { decided: 0, expired: 3, timedOut: 4 } as const;

/** Each request holds at most this long: below the client's answer timeout, and within the server's 60 s. */
const CHUNK_S = 20;
const DURATION = /^(\d+)(s|m|h)?$/;
const UNIT_S = { s: 1, m: 60, h: 3_600 } as const;

/** `10m`, `90s`, `2h` or plain seconds, as seconds; null when it is none of them. */
export function timeoutSeconds(value: string): number | null {
  const m = DURATION.exec(value.trim());
  if (!m) return null;
  return Number(m[1]) * UNIT_S[(m[2] ?? "s") as keyof typeof UNIT_S];
}

export const WAIT_HELP = `
Exit codes of wait:
  0  decided: the chosen option's id is printed on stdout
  3  expired: the ask passed its answer_by unanswered
  4  timed out: --timeout passed and nobody has answered yet (wait again to keep waiting)`;

/** `cairn wait ID [--timeout 10m] [--json]`: holds until a person answers the receipt's ask. */
export const waitCommand: CliCommand<"decision_wait"> = {
  operation: "decision_wait",
  words: ["wait"],
  async commandLine(input) {
    if (!isPlainObject(input) || typeof input.id !== "string") return null;
    const extra = Object.keys(input).filter((k) => k !== "id" && k !== "wait" && k !== "timeout_s");
    const seconds = input.wait ?? input.timeout_s;
    if (extra.length > 0 || (seconds !== undefined && typeof seconds !== "number")) return null;
    return {
      args: ["wait", input.id, "--timeout", `${seconds ?? 0}s`, "--json"],
      successExit: (data) =>
        isPlainObject(data) && data.state === "expired" ? WAIT_EXIT.expired : isPlainObject(data) && data.state === "open" ? WAIT_EXIT.timedOut : 0,
    };
  },
  async register(parent: Command, ctx) {
    const op = await operationMeta("decision_wait");
    const cmd = parent
      .command("wait")
      .description("Wait until a person answers a receipt's ask; print the chosen option's id.")
      .argument("<ID>", fieldOf(op, "id").description)
      .option("--timeout <duration>", "How long to wait in all: 10m, 90s, 2h or seconds (default 10m).", "10m")
      .option("--json", JSON_HELP)
      .addHelpText(
        "after",
        `${WAIT_HELP}\n${examplesHelp(["cairn wait art_06h2k3m4n5p6q7r8s9t0v1w2x3", 'choice=$(cairn wait art_06h2k3m4n5p6q7r8s9t0v1w2x3 --timeout 30m) && echo "$choice"'])}`,
      );
    cmd.action(async (id: string, opts: { timeout: string; json?: boolean }) => {
      const json = opts.json === true;
      const total = timeoutSeconds(opts.timeout);
      if (total === null) {
        fail(ctx, CliFailure.usage(`--timeout: "${opts.timeout}" is not a duration such as 10m, 90s or 2h.`), json);
        return;
      }
      await runWithClient(ctx, json, async (client, printer) => {
        const until = Date.now() + total * 1000;
        for (;;) {
          const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
          const answer = await client.call("decision_wait", { id, wait: Math.min(CHUNK_S, left) });
          const { state, decision } = answer.data;
          if (state !== "open" || left <= CHUNK_S) {
            if (json) printer.out(answer.text);
            else if (decision?.state === "decided") printer.out(decision.option);
            else printer.err(state === "expired" ? "The ask expired unanswered." : `Nobody answered within ${opts.timeout}.`);
            return state === "decided" ? WAIT_EXIT.decided : state === "expired" ? WAIT_EXIT.expired : WAIT_EXIT.timedOut;
          }
        }
      });
    });
  },
};
