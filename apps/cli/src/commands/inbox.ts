import type { Acknowledgement, OperationOutput } from "@cairn/core";
import { isPlainObject } from "@cairn/core/json";
import type { Command } from "commander";
import { CliFailure } from "../failure.js";
import { acknowledgementText, assignedText, inboxEmptyText, outcomeItemLine } from "../light.js";
import { fieldOf, humanActionLabel, operationMeta } from "../metadata.js";
import type { Printer } from "../output.js";
import { type CliCommand, examplesHelp, operationCommand } from "./define.js";
import { optionFor } from "./fields.js";
import { fail, JSON_HELP, runWithClient } from "./run.js";

function ackLine(k: Acknowledgement): string {
  return `  ${acknowledgementText(k)} (${k.by.token_name})${k.note === null ? "" : `: ${k.note}`}`;
}

function printInbox(page: OperationOutput<"inbox_list">, label: string, printer: Printer, request: Record<string, unknown>, openInAll?: number): void {
  if (page.items.length === 0) printer.out(inboxEmptyText(request, openInAll));
  for (const item of page.items) {
    const assigned = item.assignee === null ? "" : `  ${assignedText(item.assignee)}`;
    printer.out(`${item.id}  ${item.state}  ${item.age.text}  ${item.receipt.owner}${assigned}  ${item.receipt.title}`);
    printer.out(`  ${label}: ${item.human_action}`);
    if (item.ask) printer.out(`  ${item.ask.text}`);
    for (const k of item.acknowledgements) printer.out(ackLine(k));
  }
  if (page.next_cursor) printer.err(`More: --cursor ${page.next_cursor}`);
}

const PAGE_OPTIONS = [
  ["state", "--state <state>"],
  ["owner", "--owner <owner>"],
  ["assignee", "--assignee <me|none|name>"],
  ["limit", "--limit <n>"],
  ["cursor", "--cursor <cursor>"],
] as const;

/** `cairn inbox [--all]`: open actions by default; `--all` adds the acknowledged ones. */
export const inboxCommand: CliCommand<"inbox_list"> = {
  operation: "inbox_list",
  words: ["inbox"],
  async commandLine(input) {
    if (!isPlainObject(input)) return null;
    const args = ["inbox"];
    for (const [field, flags] of PAGE_OPTIONS) {
      const value = input[field];
      if (value !== undefined) args.push(flags.split(" ")[0] as string, String(value));
    }
    if (Object.keys(input).some((k) => !PAGE_OPTIONS.some(([field]) => field === k))) return null;
    return { args: [...args, "--json"] };
  },
  async register(parent: Command, ctx) {
    const op = await operationMeta("inbox_list");
    const cmd = parent.command("inbox").description(op.description);
    for (const [field, flags] of PAGE_OPTIONS) cmd.addOption(optionFor(fieldOf(op, field), flags));
    cmd
      .option("--all", "Open and acknowledged actions (the same as --state all).")
      .option("--json", JSON_HELP)
      .addHelpText(
        "after",
        examplesHelp(["cairn inbox", "cairn inbox --all --owner team:platform", "cairn inbox --assignee me", "cairn inbox --json | jq -r '.items[].id'"]),
      );
    cmd.action(async (opts: Record<string, unknown>) => {
      const json = opts.json === true;
      const request: Record<string, unknown> = {};
      for (const [field] of PAGE_OPTIONS) if (opts[field] !== undefined) request[field] = opts[field];
      if (opts.all === true) {
        if (request.state !== undefined && request.state !== "all") {
          fail(ctx, CliFailure.usage("--all and --state say different things; give one."), json);
          return;
        }
        request.state = "all";
      }
      await runWithClient(ctx, json, async (client, printer) => {
        const answer = await client.call("inbox_list", request);
        if (json) printer.out(answer.text);
        else {
          // "Nothing is assigned to you (4 open in all)": the count is the status line's.
          const mineOnly = answer.data.items.length === 0 && request.assignee === "me" && request.cursor === undefined;
          const openInAll = mineOnly ? (await client.call("status", {})).data.inbox.open : undefined;
          printInbox(answer.data, await humanActionLabel(), printer, request, openInAll);
        }
      });
    });
  },
};

export const ackCommand = operationCommand("artifact_acknowledge", {
  words: ["ack"],
  args: [{ field: "id", name: "ID" }],
  options: [{ field: "note", flags: "--note <text>" }],
  summary: "Say you saw what a receipt asks of you, with an optional note (human tokens only; once per person).",
  examples: ["cairn ack art_06h2k3m4n5p6q7r8s9t0v1w2x3", 'cairn ack art_06h2k3m4n5p6q7r8s9t0v1w2x3 --note "Approved in #finance"'],
  human(a, printer) {
    printer.out(`Acknowledged ${a.id}: ${a.title}`);
    for (const k of a.acknowledgements) printer.out(ackLine(k));
    printer.out(a.url);
  },
});

export const outcomesCommand = operationCommand("outcomes_list", {
  words: ["outcomes"],
  options: [
    { field: "state", flags: "--state <state>" },
    { field: "owner", flags: "--owner <owner>" },
    { field: "limit", flags: "--limit <n>" },
    { field: "cursor", flags: "--cursor <cursor>" },
  ],
  examples: ["cairn outcomes", "cairn outcomes --state upcoming", "cairn outcomes --json | jq -r '.items[].id'"],
  human(page, printer) {
    if (page.items.length === 0) printer.out("No outcome in that state.");
    for (const o of page.items) {
      printer.out(outcomeItemLine(o));
      if (o.state === "overdue") printer.out(`  → measure it, then leave a receipt with "follows": "${o.id}"`);
    }
    if (page.next_cursor) printer.err(`More: --cursor ${page.next_cursor}`);
  },
});
