import type { Command } from "commander";
import { CliFailure } from "../failure.js";
import { expiryLine, fieldLines, warningLine } from "../format.js";
import { parseDocument } from "../input/parse-document.js";
import { readSource } from "../input/read-source.js";
import { applyReceiptFlags } from "../input/receipt-flags.js";
import { LIMITS } from "../light.js";
import { fieldOf, operationMeta, receiptDescription } from "../metadata.js";
import { printerFor } from "../output.js";
import type { CliCommand } from "./define.js";
import { examplesHelp } from "./define.js";
import { optionFor } from "./fields.js";
import { fail, JSON_HELP, runWithClient } from "./run.js";

const EXAMPLES = [
  "cairn receipt --from receipt.json",
  "cairn receipt --from receipt.yaml --details notes.md --tag nightly --model opus-5",
  "generate-receipt | cairn receipt --from - --json",
  "cairn receipt --dry-run --from receipt.yaml   # validate and render locally; nothing is sent",
  "cairn receipt --template > receipt.yaml        # a commented starting receipt to fill in",
];

interface ReceiptOptions {
  from?: string;
  template?: boolean;
  traceparent?: string;
  yaml?: boolean;
  details?: string;
  title?: string;
  tag?: string[];
  model?: string;
  owner?: string;
  assignee?: string;
  expiresIn?: number;
  dryRun?: boolean;
  json?: boolean;
}

/** Every field of the receipt with its rule, from the schema's own descriptions (the same text as the JSON Schema). */
function fieldsHelp(fields: ReadonlyArray<{ name: string; required: boolean; description: string }>): string {
  const width = Math.max(...fields.map((f) => f.name.length)) + 2;
  const lines = fields.map((f) => `  ${f.name.padEnd(width)}${f.required ? "required. " : ""}${f.description}`);
  return `\nReceipt fields (cairn.receipt/v1, in the --from file):\n${lines.join("\n")}\n`;
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** `cairn receipt --from FILE|-`: how scripts and scheduled runs leave receipts. */
export const receiptCommand: CliCommand<"receipt_create"> = {
  operation: "receipt_create",
  words: ["receipt"],
  // Any document, as a file on standard input: the server judges it as it would from any client.
  commandLine: async (input) => ({ args: ["receipt", "--from", "-", "--json"], stdin: JSON.stringify(input) }),
  async register(parent: Command, ctx) {
    const op = await operationMeta("receipt_create");
    const field = (name: string) => fieldOf(op, name);
    // --dry-run and --template validate and render locally: they load core's receipt module
    // (zod; no storage, no HTTP). Sending a receipt needs neither.
    const receiptModule = () => import("@cairn/core/receipt");
    const cmd = parent
      .command("receipt")
      .description(`Leave a receipt from a JSON or YAML file. ${await receiptDescription()}`)
      .option(
        "--from <file>",
        "The receipt: a JSON or YAML file with the fields of cairn.receipt/v1 (GET /v1/schemas/cairn.receipt/v1), or - for standard input. The format is read from the content.",
      )
      .addOption(optionFor(field("details"), "--details <file>", " Read from this markdown file (- for standard input); replaces `details` in the file."))
      .addOption(optionFor(field("title"), "--title <title>", " Overrides the file's title."))
      .addOption(optionFor(field("tags"), "--tag <tag>", " Repeat for more; added to the file's tags.").argParser(collect))
      .addOption(optionFor(field("model"), "--model <model>", " Overrides the file's model."))
      .addOption(optionFor(field("owner"), "--owner <owner>", " Overrides the file's owner."))
      .addOption(optionFor(field("assignee"), "--assignee <name>", " Overrides the file's assignee."))
      .addOption(optionFor(field("expires_in"), "--expires-in <seconds>", " Overrides the file's expires_in."))
      .option(
        "--dry-run",
        "Validate and render locally and print the body and checksum the server would store; nothing is sent. Checks the fields only: the server also checks owner, follows and duplicates.",
      )
      .option(
        "--traceparent <value>",
        "Link the receipt to the run of this W3C trace context (00-<trace id>-<span id>-<flags>), as REST's traceparent header does. Default: the TRACEPARENT environment variable (OpenTelemetry's environment carrier), when set.",
      )
      .option("--template", "Print a valid starting receipt to fill in, every field under its description (YAML with comments; --json for JSON), and exit.")
      .option("--yaml", "With --template: YAML (the default).")
      .option("--json", `${JSON_HELP} With --dry-run: the prepared receipt. With --template: the template as JSON.`)
      .addHelpText("after", `${fieldsHelp(op.fields)}${examplesHelp(EXAMPLES)}`);

    cmd.action(async (opts: ReceiptOptions) => {
      const json = opts.json === true;
      let raw: unknown;
      try {
        if (opts.template) {
          if (opts.yaml && json) throw CliFailure.usage("--template takes --yaml or --json, not both.");
          const [receipt, { receiptTemplate }] = await Promise.all([receiptModule(), import("./template.js")]);
          await ctx.io.write(await receiptTemplate(receipt, json ? "json" : "yaml"));
          return;
        }
        if (opts.from === undefined) throw CliFailure.usage("cairn receipt needs --from FILE (or - for standard input), or --template.");
        if (opts.from === "-" && opts.details === "-") throw CliFailure.usage("--from and --details cannot both read standard input.");
        const limit = LIMITS.requestBytes;
        const doc = await parseDocument(await readSource(ctx.io, opts.from, "--from", limit), opts.from);
        const details = opts.details === undefined ? undefined : await readSource(ctx.io, opts.details, "--details", limit);
        raw = applyReceiptFlags(doc, {
          tags: opts.tag ?? [],
          ...(opts.title !== undefined && { title: opts.title }),
          ...(opts.model !== undefined && { model: opts.model }),
          ...(opts.owner !== undefined && { owner: opts.owner }),
          ...(opts.assignee !== undefined && { assignee: opts.assignee }),
          ...(details !== undefined && { details }),
          ...(opts.expiresIn !== undefined && { expiresIn: opts.expiresIn }),
        });
        if (opts.dryRun) {
          const [receipt, { printDryRun }] = await Promise.all([receiptModule(), import("./dry-run.js")]);
          // Redacted as the server would under the default policy, so the checksum matches.
          const prepared = await receipt.prepareRedactedReceipt(raw);
          if (!prepared.ok) throw CliFailure.fromError(receipt.rejectionError(prepared.rejection, undefined).toBody());
          const printer = printerFor(ctx.io, json);
          printDryRun(prepared.value, prepared.redactions, json, printer);
          if (!json) for (const w of receipt.receiptWarnings(prepared.value.metadata, new Date())) printer.err(warningLine(w));
          return;
        }
      } catch (err) {
        fail(ctx, err, json);
        return;
      }
      await runWithClient(ctx, json, async (client, printer) => {
        // SPEC §24: the trace named by --traceparent, else by TRACEPARENT, as the REST header.
        const traceparent = opts.traceparent ?? ctx.io.env.TRACEPARENT;
        const answer = await client.call("receipt_create", raw, traceparent ? { traceparent } : {});
        if (json) return printer.out(answer.text);
        const a = answer.data;
        printer.out(`Receipt stored: ${a.title}`);
        const pairs: Array<[string, string]> = [
          ["url", a.url],
          ["id", a.id],
          ["checksum", a.checksum],
        ];
        if (a.redactions.length > 0) pairs.push(["redacted", a.redactions.map((r) => `${r.field} (${r.rule})`).join(", ")]);
        for (const line of fieldLines(pairs)) printer.out(line);
        for (const w of a.warnings) printer.err(warningLine(w));
        printer.out(expiryLine(a));
      });
    });
  },
};
