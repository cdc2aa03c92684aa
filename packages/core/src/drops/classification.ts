import type { Surface } from "../surfaces.js";
import { type SurfaceWords, surfaceWords } from "./surface-words.js";

/** Every way a receipt submission can be turned away. Order is the gate order. */
export const DROP_CATEGORIES = [
  "unknown-schema",
  "invalid",
  "unsafe-link",
  "too-thin",
  "foreign-link",
  "secret-detected",
  "policy-vetoed",
  "duplicate",
  "unknown",
] as const;

export type DropCategory = (typeof DROP_CATEGORIES)[number];

export interface DropClassification {
  category: DropCategory;
  recoverable: boolean;
  cause: string;
  next_action: string;
}

/** A row says what to do; `next_action` phrases the how with the reader's surface's words. */
type ClassificationRow = Omit<DropClassification, "category" | "next_action"> & { next_action(how: SurfaceWords): string };

/**
 * The one table that says what each rejection means to a user. Typed as a total record
 * over DropCategory: a new category does not compile until it has its row here.
 */
const CLASSIFICATION_TABLE: { readonly [K in DropCategory]: ClassificationRow } = {
  "unknown-schema": {
    recoverable: true,
    cause: "The submission named a metadata schema this server does not know.",
    next_action: (how) => `Omit \`schema\` or set it to a registered schema such as cairn.receipt/v1 (${how.knownSchemas}).`,
  },
  invalid: {
    recoverable: true,
    cause: "A field was missing, malformed or over its limit.",
    next_action: (how) => `Fix the listed fields and ${how.resubmit}; ${how.fieldDocs}.`,
  },
  "unsafe-link": {
    recoverable: true,
    cause: "An evidence link used a URL scheme that is not allowed.",
    next_action: (how) => `Use https:, http:, mcp://cairn/artifacts/<id> or mcp://cairn/runs/<run id> links for evidence and ${how.resubmit}.`,
  },
  "too-thin": {
    recoverable: true,
    cause: "`changed` was too short to tell a reader what happened.",
    next_action: (how) => `Say what changed in at least three words in \`changed\` and ${how.resubmit}.`,
  },
  "foreign-link": {
    recoverable: true,
    cause: "`follows` named a receipt that does not exist or belongs to another owner.",
    next_action: (how) => `Point \`follows\` at an earlier receipt of the same owner, or omit it, and ${how.resubmit}.`,
  },
  "secret-detected": {
    recoverable: true,
    cause: "A secret was found in the submission and the owner's policy blocks secrets.",
    next_action: (how) => `Remove the secret from the receipt (link to where it is stored instead) and ${how.resubmit}.`,
  },
  "policy-vetoed": {
    recoverable: true,
    cause: "An owner policy refused the submission.",
    next_action: (how) => `Meet the policy (for example, link evidence) and ${how.resubmit}, or have the owner change it with ${how.changePolicy}.`,
  },
  duplicate: {
    recoverable: false,
    cause: "The same owner already stored a receipt with identical fields in the last 24 hours.",
    next_action: () => "Nothing to do: the existing receipt stands.",
  },
  unknown: {
    recoverable: false,
    cause: "A custom gate refused the submission with a reason Cairn does not classify.",
    next_action: () => "Ask the operator which custom gate is installed and what it checks.",
  },
};

/** What was wrong with an `invalid` submission's first failing field, so its drop can say which. */
export const FIELD_FAULTS = ["missing", "malformed", "over_limit", "not_allowed", "unreadable", "not_json", "not_an_object"] as const;
export type FieldFault = (typeof FIELD_FAULTS)[number];

/**
 * Reads the fault from an issue's reason and limit (the validator's wording is ours and
 * stable): required or empty → missing; a maximum passed → over_limit; an unknown field,
 * a value outside the allowed set, a scheme or a character that cannot be stored →
 * not_allowed; input that is not JSON (or YAML) at all → unreadable; a body sent with
 * another (or no) Content-Type → not_json; anything else (a
 * wrong type, a date that does not exist) → malformed.
 */
export function faultOf(issue: { reason: string; limit?: number | undefined } | undefined): FieldFault | null {
  if (!issue) return null;
  const { reason } = issue;
  // A body sent as something other than JSON (415): about the request, never about dates (SPEC §24).
  if (/^must be sent as application\/json/.test(reason)) return "not_json";
  if (/^must be an object of fields/.test(reason)) return "not_an_object";
  if (/^is not valid (JSON|YAML)|^could not be read/.test(reason)) return "unreadable";
  if (/^is required|^must not be empty|counts as empty/.test(reason)) return "missing";
  if (issue.limit !== undefined && /at most|longer than|more than|larger than|over /.test(reason)) return "over_limit";
  if (/not a known field|not an allowed|must be one of|must use |cannot be stored|not allowed/.test(reason)) return "not_allowed";
  return "malformed";
}

/** For `invalid`, a cause and next action per fault; the other categories say one thing. */
const INVALID_BY_FAULT: { readonly [F in FieldFault]: Omit<ClassificationRow, "recoverable"> } = {
  missing: {
    cause: "A required field was missing or empty.",
    next_action: (how) => `Add the listed fields (required, and not blank) and ${how.resubmit}; ${how.fieldDocs}.`,
  },
  malformed: {
    cause: "A field did not have the expected form: a wrong type, or a date or URL that does not parse.",
    next_action: (how) => `Correct the form of the listed fields (dates as 2026-12-01 or 2026-12-01T09:00:00Z) and ${how.resubmit}; ${how.fieldDocs}.`,
  },
  over_limit: {
    cause: "A field was over its limit (length or number of items).",
    next_action: (how) => `Shorten the listed fields to their limits (the error names each limit; long notes belong in \`details\`) and ${how.resubmit}.`,
  },
  not_allowed: {
    cause: "A field or value is not allowed: an unknown field, a value outside the allowed set, or a character that cannot be stored.",
    next_action: (how) => `Remove or replace what the listed fields do not allow (check the field names for typos) and ${how.resubmit}; ${how.fieldDocs}.`,
  },
  unreadable: {
    cause: "The submission could not be read: it is not valid JSON.",
    next_action: (how) => `Fix the syntax at the line and column the error names and ${how.resubmit}.`,
  },
  not_an_object: {
    cause: "The submission was one value (a sentence, a number or a list), not an object of fields.",
    next_action: (how) => `Send the receipt as an object of its fields ({"changed": …, "learned": …}) and ${how.resubmit}; ${how.fieldDocs}.`,
  },
  not_json: {
    cause: "The submission was not sent as JSON: its Content-Type was missing or another type.",
    next_action: (how) => `Send the receipt as a JSON body with the header Content-Type: application/json and ${how.resubmit}.`,
  },
};

/**
 * The classification of a category, its next action phrased for the reader of `surface`
 * on the server at `serverUrl` (its public URL); an `invalid` drop with a known fault says
 * which of missing, malformed, over the limit, not allowed or unreadable it was.
 */
export function classifyDrop(category: DropCategory, surface: Surface, fault: FieldFault | null | undefined, serverUrl: string): DropClassification {
  const { next_action, ...row } = CLASSIFICATION_TABLE[category];
  const specific = category === "invalid" && fault ? INVALID_BY_FAULT[fault] : null;
  const how = surfaceWords(surface, serverUrl);
  return specific
    ? { category, recoverable: row.recoverable, cause: specific.cause, next_action: specific.next_action(how) }
    : { category, ...row, next_action: next_action(how) };
}

/** Maps a free category name (a custom gate's) to a category; anything unrecognised is `unknown`, never lost. */
export function categoryOf(name: string | undefined): DropCategory {
  return (DROP_CATEGORIES as readonly string[]).includes(name ?? "") ? (name as DropCategory) : "unknown";
}
