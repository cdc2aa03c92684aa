import { EXIT } from "../exit-codes.js";
import { CliFailure } from "../failure.js";

/** The whole input was refused before it reached the server: the same error object REST would send. */
export function rejectedInput(reason: string, limit?: number): CliFailure {
  const issue = { field: "(input)", reason, ...(limit !== undefined && { limit }) };
  return new CliFailure(EXIT.rejected, `(input): ${reason}`, {
    error: { code: "validation_failed", message: `(input): ${reason}`, issues: [issue] },
  });
}
