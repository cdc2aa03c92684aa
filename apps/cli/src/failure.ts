import type { CairnErrorBody } from "@cairn/core";
import { EXIT, type ExitCode, exitCodeOf } from "./exit-codes.js";

/**
 * Why a command failed, and how to exit. `error` is the REST error object when the server
 * (or the local validator, for --dry-run and unparseable files) answered with one: with
 * --json it is printed on stdout exactly as REST sends it.
 */
export class CliFailure extends Error {
  readonly exitCode: ExitCode;
  readonly error?: CairnErrorBody;
  /** The error object as the server sent it (bytes), so --json prints it verbatim. */
  readonly raw?: string;
  /** One more line for people: what to check next. */
  readonly hint?: string;

  constructor(exitCode: ExitCode, message: string, extra: { error?: CairnErrorBody; raw?: string; hint?: string } = {}) {
    super(message);
    this.name = "CliFailure";
    this.exitCode = exitCode;
    if (extra.error) this.error = extra.error;
    if (extra.raw) this.raw = extra.raw;
    if (extra.hint) this.hint = extra.hint;
  }

  static fromError(error: CairnErrorBody, raw?: string): CliFailure {
    return new CliFailure(exitCodeOf(error.code), error.message, { error, ...(raw !== undefined && { raw }) });
  }

  static usage(message: string): CliFailure {
    return new CliFailure(EXIT.usage, message);
  }
}
