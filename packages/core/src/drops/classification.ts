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

type ClassificationRow = Omit<DropClassification, "category">;

/**
 * The one table that says what each rejection means to a user. Typed as a total record
 * over DropCategory: a new category does not compile until it has its row here.
 */
const CLASSIFICATION_TABLE: { readonly [K in DropCategory]: ClassificationRow } = {
  "unknown-schema": {
    recoverable: true,
    cause: "The submission named a metadata schema this server does not know.",
    next_action: "Omit `schema` or set it to a registered schema such as cairn.receipt/v1 (GET /v1/schemas lists them).",
  },
  invalid: {
    recoverable: true,
    cause: "A field was missing, malformed or over its limit.",
    next_action: "Fix the listed fields and submit again; GET /v1/schemas/cairn.receipt/v1 documents every field.",
  },
  "unsafe-link": {
    recoverable: true,
    cause: "An evidence link used a URL scheme that is not allowed.",
    next_action: "Use https:, http: or mcp://cairn/ links for evidence.",
  },
  "too-thin": {
    recoverable: true,
    cause: "`changed` was too short to tell a reader what happened.",
    next_action: "Say what changed in at least three words.",
  },
  "foreign-link": {
    recoverable: true,
    cause: "`follows` named a receipt that does not exist or belongs to another owner.",
    next_action: "Point `follows` at an earlier receipt of the same owner, or omit it.",
  },
  "secret-detected": {
    recoverable: true,
    cause: "A secret was found in the submission and the owner's policy blocks secrets.",
    next_action: "Remove the secret from the receipt (link to where it is stored instead) and submit again.",
  },
  "policy-vetoed": {
    recoverable: true,
    cause: "An owner policy refused the submission.",
    next_action: "Meet the policy (for example, link evidence) or have the owner change it with `cairn policy set`.",
  },
  duplicate: {
    recoverable: false,
    cause: "The same owner already stored a receipt with identical fields in the last 24 hours.",
    next_action: "Nothing to do: the existing receipt stands.",
  },
  unknown: {
    recoverable: false,
    cause: "A custom gate refused the submission with a reason Cairn does not classify.",
    next_action: "Ask the operator which custom gate is installed and what it checks.",
  },
};

export function classifyDrop(category: DropCategory): DropClassification {
  return { category, ...CLASSIFICATION_TABLE[category] };
}

/** Maps a free category name (a custom gate's) to a category; anything unrecognised is `unknown`, never lost. */
export function categoryOf(name: string | undefined): DropCategory {
  return (DROP_CATEGORIES as readonly string[]).includes(name ?? "") ? (name as DropCategory) : "unknown";
}
