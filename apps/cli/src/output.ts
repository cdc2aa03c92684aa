import type { Issue } from "@cairn/core";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { CliFailure } from "./failure.js";
import { terminalSafe } from "./terminal.js";

/** Where a command writes: results on stdout, messages for people on stderr. */
export interface Printer {
  out(text: string): void;
  err(text: string): void;
}

/** What people read: stored text cannot drive the terminal (see terminal.ts). */
export const humanPrinter = (printer: Printer): Printer => ({
  out: (text) => printer.out(terminalSafe(text)),
  err: (text) => printer.err(terminalSafe(text)),
});

/** `--json` prints the server's JSON as it is; everything else is human output. */
export const printerFor = (printer: Printer, json: boolean): Printer => (json ? printer : humanPrinter(printer));

/** The one spelling of an issue on every command: `field: reason (limit N)`. */
export function formatIssue(issue: Issue): string {
  return `${issue.field}: ${issue.reason}${issue.limit === undefined ? "" : ` (limit ${issue.limit})`}`;
}

export function describeFailure(failure: CliFailure): string[] {
  const error = failure.error;
  const hint = failure.hint ? [`hint: ${failure.hint}`] : [];
  if (!error) return [`cairn: ${failure.message}`, ...hint];
  const lines =
    error.issues && error.issues.length > 0
      ? [`cairn: rejected (${error.code}):`, ...error.issues.map((i) => `  ${formatIssue(i)}`)]
      : [`cairn: ${error.message} (${error.code})`];
  if (error.existing) lines.push(`  existing: ${error.existing.id} ${error.existing.url}`);
  if (error.drop) lines.push(`next: ${error.drop.next_action}`);
  return [...lines, ...hint];
}

/**
 * Prints a failure and returns its exit code. With --json the REST error object goes to
 * stdout (verbatim when the server sent it); the human lines always go to stderr.
 */
export function reportFailure(err: unknown, json: boolean, printer: Printer): ExitCode {
  const human = humanPrinter(printer);
  const failure = err instanceof CliFailure ? err : new CliFailure(EXIT.server, `unexpected failure: ${err instanceof Error ? err.message : String(err)}`);
  if (json && failure.error) printer.out(failure.raw ?? JSON.stringify({ error: failure.error }));
  for (const line of describeFailure(failure)) human.err(line);
  return failure.exitCode;
}
