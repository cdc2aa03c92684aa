import { z } from "zod";
import { SURFACES } from "../context.js";
import { CALENDAR_YEARS_REASON, calendarError, isWithinCalendarYears, relativeInstant, TYPED_INSTANT_REASON } from "../dates.js";
import { Ask, Decision } from "../decision/schemas.js";
import { AssigneeName, OwnerRef } from "../identity/names.js";
import { Acknowledgement } from "../inbox/acknowledgement.js";
import { LIMITS } from "../limits.js";
import { PAGE_FIELDS } from "../paging.js";
import { registeredSchemaIds } from "../receipt/registry.js";
import { isIsoDateOrDateTime, OUTCOME_STATUSES } from "../receipt/schemas.js";
import { Tags } from "../tags.js";
import { optionalText, queryText, requiredText, storableId, storableString, titleText } from "../text.js";

export const SHARE_TYPES = ["markdown", "text", "json"] as const;
export const ShareType = z.enum(SHARE_TYPES).describe("How the body is viewed: `markdown`, `text` or `json` (a JSON body must parse).");
export type ShareType = z.infer<typeof ShareType>;

/** The media type a body of each share type is served as (MCP resources, raw downloads). */
export const SHARE_TYPE_MIME: { readonly [K in ShareType]: string } = {
  markdown: "text/markdown",
  text: "text/plain",
  json: "application/json",
};

export const Provenance = z
  .object({
    actor: z
      .object({
        id: z.string().describe("Id of the token that wrote it."),
        name: z.string().describe("Name of the token that wrote it, e.g. claude."),
        kind: z.enum(["human", "agent"]).describe("Whether the token is a person's or an agent's."),
      })
      .describe("Server-derived: the token that made the request."),
    on_behalf_of: z.string().describe("Server-derived: the user the token acts for."),
    model: z.string().nullable().describe("Client-asserted model name, or null."),
    surface: z.enum(SURFACES).describe("Which surface the write came through."),
  })
  .meta({ id: "Provenance", description: "Who asserted this artifact. Only actor and on_behalf_of are server-derived." });
export type Provenance = z.infer<typeof Provenance>;

export const Artifact = z
  .object({
    id: z.string().describe("Artifact id."),
    title: z.string().describe("Title."),
    share_type: ShareType,
    body: z.string().describe("The body. For a receipt, the server's deterministic rendering of the fields."),
    checksum: z.string().describe("`sha256:` + hex of the UTF-8 body."),
    tags: z.array(z.string()).describe("Routing hints, lowercased."),
    metadata: z
      .object({ schema: z.string().describe("Registered schema name, e.g. cairn.receipt/v1.") })
      .catchall(z.unknown())
      .nullable()
      .describe("Structured fields of a registered schema (receipts), or null."),
    owner: z.string().describe("`user:NAME` or `team:NAME`."),
    provenance: Provenance,
    follows: z.object({ id: z.string() }).nullable().describe("The earlier receipt this one follows, when you can read it."),
    produced_by: z.array(z.object({ id: z.string(), name: z.string() })).describe("Runs of the same owner, readable by you, that produced this artifact."),
    url: z.string().describe("Share link. Anyone holding it can read the artifact."),
    created_at: z.string().describe("ISO 8601 creation time."),
    expires_at: z.string().nullable().describe("ISO 8601 expiry time; null once retained."),
    retained: z.boolean().describe("Whether the artifact is kept permanently."),
    acknowledgements: z.array(Acknowledgement).describe("People who said they saw what this receipt asks of them, oldest first; empty when nobody has."),
    assignee: z.string().nullable().describe("The one user who must act on it (a bare user name, e.g. sam), or null when nobody is assigned."),
    ask: Ask.nullable().describe(
      "The question this receipt asks with fixed answers (its human_action is the question), or null. Live state, not part of the body.",
    ),
    decision: Decision.nullable().describe(
      "The answer to `ask` ({state: decided, …}) or its expiry ({state: expired, at}); null while open or without an ask.",
    ),
    followed_by: z.array(z.string()).describe("Ids of the later receipts that follow this one (its outcome measured) and that you can read, oldest first."),
    followed: z
      .boolean()
      .describe(
        "Whether any later receipt of the same owner follows this one, whether or not you can read it (a share link's holder sees `followed_by` empty): its pending outcome reads as measured.",
      ),
  })
  .meta({ id: "Artifact", description: "A stored artifact, receipts included." });
export type Artifact = z.infer<typeof Artifact>;

/** Shorter lives (SPEC §16): an artifact field, never part of the body or checksum. */
export const ExpiresIn = z
  .number()
  .int()
  .min(60)
  .optional()
  .describe("Expire sooner than the owner's default: seconds from now, at least 60 and at most the owner's TTL (default_ttl_days).");

export const ArtifactCreateInput = z
  .strictObject({
    title: titleText(LIMITS.title, "Title, one line."),
    body: requiredText(LIMITS.artifactBody, "The content."),
    share_type: ShareType.default("markdown"),
    tags: Tags.optional(),
    model: optionalText(LIMITS.model, "The model that wrote it, e.g. opus-5. Shown as a claim."),
    owner: OwnerRef.optional(),
    assignee: AssigneeName.optional(),
    expires_in: ExpiresIn,
  })
  .meta({ id: "ArtifactCreateInput", description: "A plain artifact. It takes no metadata: structured records use their own verb." });

/** The capability in a share link (`/s/<token>`); only its shape is checked here, never its value logged. */
export const ShareToken = storableId(200, "The token of a share link.");

export const ArtifactReadInput = z.strictObject({ id: storableId(64, "Artifact id.") });

/**
 * A filter instant (SPEC §34): an ISO 8601 date or date-time, or a date people type
 * (`2d`, `36h`, `today`, `yesterday`), which the verb resolves in UTC at its `now`
 * (`resolveInstant`).
 */
export const SearchInstant = (description: string) =>
  storableString()
    .overwrite((s) => relativeInstant(s) ?? s.trim())
    .refine((s) => relativeInstant(s) !== null || isIsoDateOrDateTime(s), { error: calendarError(TYPED_INSTANT_REASON), abort: true })
    .refine((s) => relativeInstant(s) !== null || isWithinCalendarYears(s), CALENDAR_YEARS_REASON)
    .optional()
    .describe(
      `${description} ISO 8601 date (from the start of that day, UTC) or date-time with a zone, or a time back from now: \`2d\`, \`36h\`, \`today\` or \`yesterday\` (start of that day, UTC).`,
    );

export const HUMAN_ACTION_FILTERS = ["needed", "none"] as const;
export const OUTCOME_FILTERS = [...OUTCOME_STATUSES, "overdue"] as const;
export const SEARCH_FIELDS = ["full", "summary"] as const;

/** Every filter is optional and they combine with AND; only artifacts the caller may read are ever listed. */
export const ArtifactSearchInput = z.strictObject({
  q: queryText(
    LIMITS.query,
    "Full-text query (web-search syntax) over a receipt's title, answers and details (not the template's headings), or a plain artifact's title and body.",
  ).optional(),
  tag: storableString()
    .overwrite((s) => s.trim().toLowerCase())
    .max(LIMITS.tag)
    .optional()
    .describe("Only artifacts carrying this tag."),
  owner: OwnerRef.optional().describe("Only artifacts of this owner, `user:NAME` or `team:NAME` (one you can read; any other lists nothing)."),
  schema: z.enum(registeredSchemaIds()).optional().describe("Only artifacts whose metadata has this registered schema, e.g. cairn.receipt/v1."),
  human_action: z
    .enum(HUMAN_ACTION_FILTERS)
    .optional()
    .describe('`needed`: receipts whose human_action is not "Nothing"; `none`: receipts that need nothing from a person.'),
  outcome: z.enum(OUTCOME_FILTERS).optional().describe("Receipts by outcome status; `overdue` = pending, its measure_at due, and no receipt follows it yet."),
  measure_before: SearchInstant("Only receipts whose outcome measure_at falls due before this."),
  created_after: SearchInstant("Only artifacts created after this."),
  created_before: SearchInstant("Only artifacts created before this."),
  fields: z.enum(SEARCH_FIELDS).optional().describe("`summary` leaves each body out (cheaper for agents; read one with artifact_read); default `full`."),
  ...PAGE_FIELDS,
});
export type ArtifactSearchInput = z.output<typeof ArtifactSearchInput>;

export const EXPORT_FORMATS = ["ndjson", "in-toto"] as const;

/** Export walks every page of what search would list, without a full-text query: one tag, or everything. */
export const ArtifactExportInput = ArtifactSearchInput.pick({ tag: true, cursor: true }).extend({
  format: z
    .enum(EXPORT_FORMATS)
    .optional()
    .describe(
      "`ndjson` (default): one artifact object per line. `in-toto`: receipts only, one DSSE envelope per line holding a signed in-toto Statement v1 (verify with GET /v1/keys).",
    ),
});

export const ArtifactList = z
  .object({
    items: z.array(Artifact),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
  })
  .meta({ id: "ArtifactList", description: "One page of artifacts, newest first." });

export const ArtifactSummary = Artifact.extend({
  body: z.string().optional().describe("The body; left out when the search asked for `fields=summary`."),
}).meta({ id: "ArtifactSummary", description: "An artifact as a search lists it: the body is left out under fields=summary." });

export const ArtifactSearchList = z
  .object({
    items: z.array(ArtifactSummary),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
  })
  .meta({ id: "ArtifactSearchList", description: "One page of search results, newest first." });

export const CreatedArtifact = Artifact.extend({
  redactions: z.array(z.object({ field: z.string(), rule: z.string() })).describe("Secrets replaced by [REDACTED:<rule>] before storing, by field."),
  warnings: z
    .array(z.object({ field: z.string().describe("Dotted path of the field."), reason: z.string().describe("What a reader will trip over.") }))
    .describe("Accepted, but worth a second look: a pending `measure_at` already past, no evidence linked."),
}).meta({ id: "CreatedArtifact", description: "The stored artifact, with what was redacted on the way in." });
export type CreatedArtifact = z.infer<typeof CreatedArtifact>;
