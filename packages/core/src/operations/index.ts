import { z } from "zod";
import { createArtifact } from "../artifact/create.js";
import { readArtifact } from "../artifact/read.js";
import {
  Artifact,
  ArtifactCreateInput,
  ArtifactReadInput,
  ArtifactSearchInput,
  ArtifactSearchList,
  CreatedArtifact,
} from "../artifact/schemas.js";
import { searchArtifacts } from "../artifact/search.js";
import type { ServiceContext } from "../context.js";
import { defineOperation, type Operation } from "./define.js";
import { EVENT_OPERATIONS } from "../events/operations.js";
import { EXPORT_RETAIN_OPERATIONS } from "./export-retain.js";
import { GATE_OPERATIONS } from "./gates.js";
import { CreatedToken, Me, TokenCreateInput, UserCreateInput, UserCreateOutput } from "../identity/schemas.js";
import { IDENTITY_OPERATIONS } from "../identity/operations.js";
import { createToken, createUser, describeMe } from "../identity/users.js";
import { createReceipt, refuseUnreadableReceipt } from "../receipt/create.js";
import { ReceiptCreateInput } from "../receipt/schemas.js";
import { INBOX_OPERATIONS } from "../inbox/operations.js";
import { RUN_OPERATIONS } from "./runs.js";
import { TEAM_OPERATIONS } from "./teams.js";
import { SIGNING_OPERATIONS } from "../signing/operations.js";

/**
 * Every verb, by name. Areas that grow their own verbs keep them in a module of this
 * folder and spread them in here.
 */
export const OPERATIONS = {
  receipt_create: {
    name: "receipt_create",
    description:
      "Leave a structured receipt when you finish work: what changed, who is affected, before and after, evidence, outcome, what a human must do, what remains and what was learned. The server redacts secrets, renders the body, checksums it and returns a share link. Receipts expire after the owner's default_ttl_days (7 unless the policy changes it) unless retained. A refused receipt leaves a drop receipt (see drops_list).",
    input: ReceiptCreateInput,
    output: CreatedArtifact,
    mutates: true,
    // The receipt gates validate the raw input themselves, so a rejection is classified and leaves a drop.
    invoke: (ctx: ServiceContext, raw: unknown) => createReceipt(ctx, raw),
    refuseUnreadable: refuseUnreadableReceipt,
  } satisfies Operation<typeof ReceiptCreateInput, typeof CreatedArtifact>,
  artifact_create: defineOperation({
    name: "artifact_create",
    description: "Store a plain artifact (markdown, text or JSON) and get its share link. Takes no metadata.",
    input: ArtifactCreateInput,
    output: CreatedArtifact,
    mutates: true,
    run: createArtifact,
  }),
  artifact_read: defineOperation({
    name: "artifact_read",
    description: "Read one artifact by id, if you own it or belong to its owning team.",
    input: ArtifactReadInput,
    output: Artifact,
    mutates: false,
    run: readArtifact,
  }),
  artifact_search: defineOperation({
    name: "artifact_search",
    description:
      "List artifacts you can read, newest first, one page at a time. Filters combine with AND: full-text `q`, `tag`, `owner`, `schema`, `human_action` (needed|none), `outcome` (measured|pending|not_applicable|overdue), `measure_before`, `created_after`, `created_before`. `fields=summary` leaves bodies out.",
    input: ArtifactSearchInput,
    output: ArtifactSearchList,
    mutates: false,
    run: searchArtifacts,
  }),
  ...EXPORT_RETAIN_OPERATIONS,
  me: defineOperation({
    name: "me",
    description: "Who the server thinks you are: user, token and teams.",
    input: z.strictObject({}),
    output: Me,
    mutates: false,
    run: describeMe,
  }),
  user_create: defineOperation({
    name: "user_create",
    description: "Create a user and its first human token (administrators only). The token is shown once.",
    input: UserCreateInput,
    output: UserCreateOutput,
    mutates: true,
    run: createUser,
  }),
  token_create: defineOperation({
    name: "token_create",
    description: "Mint a bearer token for yourself (or, as an administrator, for another user). Shown once.",
    input: TokenCreateInput,
    output: CreatedToken,
    mutates: true,
    run: createToken,
  }),
  ...IDENTITY_OPERATIONS,
  ...TEAM_OPERATIONS,
  ...RUN_OPERATIONS,
  ...GATE_OPERATIONS,
  ...SIGNING_OPERATIONS,
  ...EVENT_OPERATIONS,
  ...INBOX_OPERATIONS,
} as const;

export type OperationName = keyof typeof OPERATIONS;
export type OperationInput<N extends OperationName> = z.input<(typeof OPERATIONS)[N]["input"]>;
export type OperationOutput<N extends OperationName> = z.output<(typeof OPERATIONS)[N]["output"]>;

export const operationNames = () => Object.keys(OPERATIONS) as OperationName[];

export { defineOperation, type Operation } from "./define.js";
export { pagesOf, type PagedOperationName } from "./paging.js";
