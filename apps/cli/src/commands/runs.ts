import type { Run, RunSummary } from "@cairn/core";
import { isPlainObject } from "@cairn/core/json";
import type { Command } from "commander";
import { CliFailure } from "../failure.js";
import { parseDocument } from "../input/parse-document.js";
import { readSource } from "../input/read-source.js";
import { LIMITS } from "../light.js";
import { operationMeta } from "../metadata.js";
import type { Printer } from "../output.js";
import { type CliCommand, examplesHelp, operationCommand } from "./define.js";
import { fail, JSON_HELP, runWithClient } from "./run.js";

/** "ended, 1 error · 4 spans · 300 in / 30 out tokens · gpt-4o · 2.5 s": a run's state and totals on one line. */
function totalsLine(r: RunSummary | Run): string {
  const parts = [
    `${r.status}${r.error ? `, ${r.error_count} error${r.error_count === 1 ? "" : "s"}` : ""}`,
    `${r.span_count} span${r.span_count === 1 ? "" : "s"}`,
  ];
  if (r.usage.input_tokens > 0 || r.usage.output_tokens > 0) parts.push(`${r.usage.input_tokens} in / ${r.usage.output_tokens} out tokens`);
  if (r.models.length > 0) parts.push(r.models.join(", "));
  if (r.duration_ms !== null) parts.push(r.duration_ms < 1000 ? `${r.duration_ms} ms` : `${(r.duration_ms / 1000).toFixed(1)} s`);
  return parts.join(" · ");
}

function printRun(run: Run, printer: Printer): void {
  printer.out(`${run.id}  ${run.name}  (${run.owner})  ${totalsLine(run)}`);
  if (run.conversation_id) printer.out(`  conversation ${run.conversation_id}`);
  for (const p of run.produced) printer.out(`  produced ${p.artifact_id}${p.span_id ? ` (span ${p.span_id})` : ""}`);
  for (const span of run.spans) {
    const produced = span.produced_artifact_id ? `  → ${span.produced_artifact_id}` : "";
    const status = span.status && span.status.code !== "unset" ? `  [${span.status.code}${span.status.message ? `: ${span.status.message}` : ""}]` : "";
    printer.out(`  ${span.span_id}  ${span.name}  ${span.start_time}${status}${produced}`);
  }
  if (run.spans_next_cursor) printer.err(`More spans: cairn run show ${run.id} --spans-cursor ${run.spans_next_cursor}`);
}

export const runStartCommand = operationCommand("run_create", {
  words: ["run", "start"],
  args: [{ field: "name", name: "NAME" }],
  options: [{ field: "owner", flags: "--owner <owner>" }],
  examples: ["RUN=$(cairn run start nightly-export)   # the run id alone is on stdout", "cairn run start deploy --owner team:platform"],
  // The id alone on stdout, so `$(cairn run start …)` captures it.
  human(run, printer) {
    printer.err(`Run "${run.name}" started for ${run.owner}:`);
    printer.out(run.id);
  },
});

export const runShowCommand = operationCommand("run_read", {
  words: ["run", "show"],
  args: [{ field: "run_id", name: "RUN_ID" }],
  options: [
    { field: "spans_limit", flags: "--spans-limit <n>" },
    { field: "spans_cursor", flags: "--spans-cursor <cursor>" },
  ],
  examples: ["cairn run show run_06h2k3m4n5p6q7r8s9t0v1w2x3", "cairn run show $RUN --spans-limit 100"],
  human: printRun,
});

export const runsCommand = operationCommand("run_list", {
  words: ["runs"],
  args: [{ field: "q", name: "WORDS", variadic: true }],
  options: [
    { field: "agent", flags: "--agent <name>" },
    { field: "model", flags: "--model <model>" },
    { field: "status", flags: "--status <status>" },
    { field: "error", flags: "--error <true|false>" },
    { field: "conversation", flags: "--conversation <id>" },
    { field: "since", flags: "--since <when>" },
    { field: "before", flags: "--before <when>" },
    { field: "owner", flags: "--owner <owner>" },
    { field: "limit", flags: "--limit <n>" },
    { field: "cursor", flags: "--cursor <cursor>" },
  ],
  examples: [
    "cairn runs",
    "cairn runs nightly --owner team:platform",
    "cairn runs 4bf92f3577b34da6a3ce929d0e0e4736   # a trace id",
    "cairn runs --error true --since 2026-11-01   # runs that failed since then",
    "cairn runs --model gpt-4o --status ended",
    "cairn runs --conversation conv_42            # the runs of one conversation",
    "cairn runs --json | jq -r '.items[].id'",
  ],
  human(page, printer) {
    if (page.items.length === 0) printer.out("No runs.");
    for (const r of page.items) {
      const trace = r.trace_id ? `  trace ${r.trace_id}` : "";
      printer.out(`${r.id}  ${r.name}  (${r.owner})  ${totalsLine(r)}  ${r.created_at}${trace}`);
    }
    if (page.next_cursor) printer.err(`More: run again with --cursor ${page.next_cursor}`);
  },
});

export const runDeleteCommand = operationCommand("run_delete", {
  words: ["run", "delete"],
  args: [{ field: "run_id", name: "RUN_ID" }],
  examples: ["cairn run delete run_06h2k3m4n5p6q7r8s9t0v1w2x3"],
  human: (d, printer) =>
    printer.out(
      `Deleted ${d.id}${d.receipts_kept > 0 ? ` (${d.receipts_kept === 1 ? "the receipt it produced stays" : `the ${d.receipts_kept} receipts it produced stay`}, no longer naming it)` : ""}.`,
    ),
});

export const runCloseCommand = operationCommand("run_close", {
  words: ["run", "close"],
  args: [{ field: "run_id", name: "RUN_ID" }],
  examples: ["cairn run close $RUN"],
  human: printRun,
});

const SPANS_EXAMPLES = [
  "cairn run spans $RUN --from spans.json     # [{span_id, name, start_time, end_time?, produced_artifact_id?, ...}]",
  "cairn run spans $RUN --from spans.yaml     # or {spans: [...]}",
];

/** `cairn run spans RUN_ID --from FILE|-`: a batch of spans from a JSON or YAML file. */
export const runSpansCommand: CliCommand<"run_append_spans"> = {
  operation: "run_append_spans",
  words: ["run", "spans"],
  async commandLine(input) {
    if (!isPlainObject(input) || typeof input.run_id !== "string" || Object.keys(input).some((k) => k !== "run_id" && k !== "spans")) return null;
    return { args: ["run", "spans", input.run_id, "--from", "-", "--json"], stdin: JSON.stringify({ spans: input.spans }) };
  },
  async register(parent: Command, ctx) {
    const cmd = parent
      .command("spans")
      .description((await operationMeta("run_append_spans")).description)
      .argument("<RUN_ID>", "Run id (run_…).")
      .requiredOption("--from <file>", "The spans: a JSON or YAML list, or an object with a `spans` list; - for standard input.")
      .option("--json", JSON_HELP)
      .addHelpText("after", examplesHelp(SPANS_EXAMPLES));
    cmd.action(async (runId: string, opts: { from: string; json?: boolean }) => {
      const json = opts.json === true;
      let spans: unknown;
      try {
        const doc = await parseDocument(await readSource(ctx.io, opts.from, "--from", LIMITS.requestBytes), opts.from);
        spans = Array.isArray(doc) ? doc : (doc as { spans?: unknown } | null)?.spans;
        if (spans === undefined) throw CliFailure.usage("--from must hold a list of spans, or an object with a `spans` list.");
      } catch (err) {
        fail(ctx, err, json);
        return;
      }
      await runWithClient(ctx, json, async (client, printer) => {
        const answer = await client.call("run_append_spans", { run_id: runId, spans });
        if (json) return printer.out(answer.text);
        const a = answer.data;
        printer.out(`Appended ${a.appended} span${a.appended === 1 ? "" : "s"} to ${a.run_id} (${a.unchanged} already there; ${a.span_count} in all).`);
      });
    });
  },
};
