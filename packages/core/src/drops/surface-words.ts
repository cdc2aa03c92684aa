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
  /** How to list drop receipts. */
  listDrops: string;
}

export const SURFACE_WORDS: { readonly [S in Surface]: SurfaceWords } = {
  rest: {
    resubmit: "POST /v1/receipts again",
    fieldDocs: "GET /v1/schemas/cairn.receipt/v1 documents every field",
    knownSchemas: "GET /v1/schemas lists them",
    changePolicy: "PUT /v1/policy",
    listDrops: "GET /v1/drops",
  },
  mcp: {
    resubmit: "call receipt_create again",
    fieldDocs: "receipt_create's input schema describes every field",
    knownSchemas: "receipt_create needs no `schema` argument",
    changePolicy: "the policy_set tool",
    listDrops: "the drops_list tool",
  },
  cli: {
    resubmit: "run `cairn receipt --from FILE` again (`--dry-run` checks it first)",
    fieldDocs: "`cairn receipt --help` shows an example, and $CAIRN_URL/v1/schemas/cairn.receipt/v1 documents every field",
    knownSchemas: "cairn.receipt/v1 is the one registered schema",
    changePolicy: "`cairn policy set`",
    listDrops: "`cairn drops`",
  },
  web: {
    resubmit: "submit it again",
    fieldDocs: "/v1/schemas/cairn.receipt/v1 documents every field",
    knownSchemas: "/v1/schemas lists them",
    changePolicy: "`cairn policy set`",
    listDrops: "the Doctor page",
  },
};
