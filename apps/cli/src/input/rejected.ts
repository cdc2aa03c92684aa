import { EXIT } from "../exit-codes.js";
import { CliFailure } from "../failure.js";

/** The whole input was refused before it reached the server: the same error object REST would send. */
export function rejectedInput(reason: string, limit?: number, field = "(input)"): CliFailure {
  const issue = { field, reason, ...(limit !== undefined && { limit }) };
  return new CliFailure(EXIT.rejected, `${field}: ${reason}`, {
    error: { code: "validation_failed", message: `${field}: ${reason}`, issues: [issue] },
  });
}
