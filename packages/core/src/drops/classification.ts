import type { Surface } from "../surfaces.js";
import { SURFACE_WORDS, type SurfaceWords } from "./surface-words.js";

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
    next_action: (how) => `Use https:, http: or mcp://cairn/artifacts/<id> links for evidence and ${how.resubmit}.`,
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

/** The classification of a category, its next action phrased for the reader of `surface`. */
export function classifyDrop(category: DropCategory, surface: Surface): DropClassification {
  const { next_action, ...row } = CLASSIFICATION_TABLE[category];
  return { category, ...row, next_action: next_action(SURFACE_WORDS[surface]) };
}

/** Maps a free category name (a custom gate's) to a category; anything unrecognised is `unknown`, never lost. */
export function categoryOf(name: string | undefined): DropCategory {
  return (DROP_CATEGORIES as readonly string[]).includes(name ?? "") ? (name as DropCategory) : "unknown";
}
