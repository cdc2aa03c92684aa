import { type CairnError, type Issue, validationFailed } from "../errors.js";
import { nestingReason, pathPastDepth } from "../json.js";
import { LIMITS } from "../limits.js";
import { pathOf } from "../validation.js";

/** The issue of an input nested past LIMITS.depth: the path of the first value past it, the reason and the limit. */
export function nestingIssue(raw: unknown): Issue | undefined {
  const path = pathPastDepth(raw, LIMITS.depth);
  if (path === undefined) return undefined;
  return { field: pathOf(path), reason: nestingReason(LIMITS.depth), limit: LIMITS.depth };
}

/** The refusal of an input nested past LIMITS.depth, or undefined for one within it. */
export function nestingError(raw: unknown): CairnError | undefined {
  const issue = nestingIssue(raw);
  if (issue === undefined) return undefined;
  return validationFailed([issue]);
}
