import type { Surface } from "../surfaces.js";

/**
 * The few things a next action asks a reader to do, phrased for the reader of each
 * surface: a REST client gets the route, a model on MCP the tool or the field, a person
 * at a terminal the command, a person on the web the page. The classification table says
 * what to do; these say how, so an agent is never told to "GET" something it cannot.
 */
export interface SurfaceWords {
  /** Send the receipt again. */
  resubmit: string;
  /** Where every receipt field is documented. */
  fieldDocs: string;
  /** How to learn which metadata schemas exist. */
  knownSchemas: string;
  /** How an owner changes a policy. */
  changePolicy: string;
  /** How to list drop receipts; empty where the reader already sees them (the web's doctor page lists them below its checks). */
  listDrops: string;
  /** How a person says they dealt with the drops (SPEC §24). */
  dismissDrops: string;
}

/**
 * The words for a reader of `surface`, naming the server's own address (`serverUrl`, its
 * public URL) where a person is sent to a page: never a placeholder like `$CAIRN_URL`.
 */
export function surfaceWords(surface: Surface, serverUrl: string): SurfaceWords {
  const schemaPage = `${serverUrl.replace(/\/+$/, "")}/v1/schemas/cairn.receipt/v1`;
  const words = SURFACE_WORDS[surface];
  return surface === "cli" || surface === "web" ? { ...words, fieldDocs: `${words.fieldDocs}${schemaPage} documents every field` } : words;
}

/** Where a page is named (cli, web), `fieldDocs` is completed with the server's URL by `surfaceWords`. */
export const SURFACE_WORDS: { readonly [S in Surface]: SurfaceWords } = {
  rest: {
    resubmit: "POST /v1/receipts again",
    fieldDocs: "GET /v1/schemas/cairn.receipt/v1 documents every field",
    knownSchemas: "GET /v1/schemas lists them",
    changePolicy: "PUT /v1/policy",
    listDrops: "GET /v1/drops",
    dismissDrops: "Once dealt with, POST /v1/drops/dismiss (a human token) stops them warning.",
  },
  mcp: {
    resubmit: "call receipt_create again",
    fieldDocs: "receipt_create's input schema describes every field",
    knownSchemas: "receipt_create needs no `schema` argument",
    changePolicy: "the policy_set tool",
    listDrops: "the drops_list tool",
    dismissDrops: "A fixed one stops warning once you store the corrected receipt.",
  },
  cli: {
    resubmit: "run `cairn receipt --from FILE` again (`--dry-run` checks it first)",
    fieldDocs: "`cairn receipt --help` shows an example, and ",
    knownSchemas: "cairn.receipt/v1 is the one registered schema",
    changePolicy: "`cairn policy set`",
    listDrops: "`cairn drops`",
    dismissDrops: "Once dealt with, `cairn drops dismiss` stops them warning.",
  },
  web: {
    resubmit: "submit it again",
    fieldDocs: "",
    knownSchemas: "/v1/schemas lists them",
    changePolicy: "`cairn policy set`",
    listDrops: "",
    dismissDrops: "Once dealt with, Dismiss them below.",
  },
};
