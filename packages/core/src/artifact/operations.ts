import { defineApiTag } from "../operations/api-tags.js";
import { defineOperation } from "../operations/define.js";
import { A2uiMessages, readArtifactA2ui } from "./a2ui.js";
import { ArtifactAssignInput, assignArtifact } from "./assign.js";
import { Comment, CommentCreateInput, CommentDeleteInput, CommentList, CommentListInput, createComment, deleteComment, listComments } from "./comments.js";
import { createArtifact } from "./create.js";
import { ArtifactExportPage, exportArtifacts } from "./export.js";
import { readArtifact } from "./read.js";
import { retainArtifact } from "./retain.js";
import { Artifact, ArtifactCreateInput, ArtifactExportInput, ArtifactReadInput, ArtifactSearchInput, ArtifactSearchList, CreatedArtifact } from "./schemas.js";
import { searchArtifacts } from "./search.js";
import { ArtifactTransferInput, transferArtifact } from "./transfer.js";

/** This area's group in the API documentation. */
export const ARTIFACT_TAG = defineApiTag(
  "Artifacts",
  "Stored receipts and other artifacts: read one, search them (full text and tags), export every page as NDJSON, and keep one past its expiry.",
);

/** Artifacts: storing, reading, finding, exporting and keeping them past their expiry. */
export const ARTIFACT_OPERATIONS = {
  artifact_create: defineOperation({
    notOn: { cli: "plain artifacts are for programs that speak REST or MCP; the CLI leaves receipts" },
    title: "Store an artifact",
    description: "Store a plain artifact (markdown, text or JSON) and get its share link. Takes no metadata.",
    input: ArtifactCreateInput,
    output: CreatedArtifact,
    mutates: true,
    permission: "artifacts:write",
    errors: ["forbidden"],
    run: createArtifact,
  }),
  artifact_read: defineOperation({
    title: "Read an artifact",
    description: "Read one artifact by id, if you own it or belong to its owning team.",
    input: ArtifactReadInput,
    output: Artifact,
    mutates: false,
    errors: ["not_found", "gone"],
    run: readArtifact,
  }),
  artifact_a2ui: defineOperation({
    notOn: {
      mcp: "served as the resource mcp://cairn/artifacts/{id}/a2ui (application/a2ui+json), which an A2UI host reads",
      cli: "for hosts that render A2UI; a person reads a receipt with `cairn read ID`",
    },
    title: "Read a receipt as A2UI",
    description:
      "A receipt's card as A2UI v0.9.1 messages (createSurface, updateComponents, updateDataModel) over the basic catalog, in the web card's order, by the same read rule as artifact_read. Only receipts have one.",
    input: ArtifactReadInput,
    output: A2uiMessages,
    mutates: false,
    errors: ["not_found", "gone"],
    run: readArtifactA2ui,
  }),
  artifact_search: defineOperation({
    title: "Search artifacts",
    description:
      "List artifacts you can read, newest first, one page at a time. Filters combine with AND: full-text `q`, `tag`, `owner`, `schema`, `human_action` (needed|none), `outcome` (measured|pending|not_applicable|overdue), `measure_before`, `created_after`, `created_before`. `fields=summary` leaves bodies out.",
    input: ArtifactSearchInput,
    output: ArtifactSearchList,
    mutates: false,
    run: searchArtifacts,
  }),
  artifact_export: defineOperation({
    notOn: { mcp: "a stream, not a call" },
    title: "Export artifacts",
    description:
      "Export every artifact you can read (optionally only one tag), newest first, one page per call. REST streams all pages as NDJSON; `format=in-toto` gives signed DSSE envelopes of receipts instead.",
    input: ArtifactExportInput,
    output: ArtifactExportPage,
    mutates: false,
    run: exportArtifacts,
  }),
  artifact_retain: defineOperation({
    notOn: { mcp: "a person's decision" },
    title: "Retain an artifact",
    description: "Keep an artifact permanently: it no longer expires (retained: true, expires_at: null). Only its owner, or members of its owning team.",
    input: ArtifactReadInput,
    output: Artifact,
    mutates: true,
    idempotent: true,
    permission: "artifacts:retain",
    errors: ["not_found"],
    run: retainArtifact,
  }),
  artifact_assign: defineOperation({
    title: "Assign an artifact",
    description:
      "Name the one user who must act on an artifact (a bare user name who may read it: the owner user or a member of the owner team), or null for nobody. Human tokens only: an agent may name an assignee only when it creates the receipt. Each change is announced as artifact.assigned. Returns the artifact.",
    input: ArtifactAssignInput,
    output: Artifact,
    mutates: true,
    idempotent: true,
    permission: "artifacts:assign",
    errors: ["not_found", "gone"],
    run: assignArtifact,
  }),
  artifact_transfer: defineOperation({
    title: "Move an artifact to a team",
    description:
      "Move an artifact to a team (`owner: team:NAME`): the owner user moves theirs to a team they belong to; an administrator may move any. Acknowledgements, the assignee (when they may read it there), the ask and decision, comments and links follow; visibility is the new owner's. Announced as artifact.transferred, naming both owners. Human tokens only. Returns the artifact.",
    input: ArtifactTransferInput,
    output: Artifact,
    mutates: true,
    permission: "artifacts:transfer",
    errors: ["forbidden", "not_found", "gone"],
    run: transferArtifact,
  }),
  comment_create: defineOperation({
    title: "Comment on an artifact",
    description:
      "Comment on an artifact you may read (markdown, at most 4,000 characters; a secret refuses it with a drop receipt). An agent's comment is labelled as the agent's. Announced as artifact.commented. Returns the comment.",
    input: CommentCreateInput,
    output: Comment,
    mutates: true,
    permission: "artifacts:write",
    errors: ["not_found", "gone"],
    run: createComment,
  }),
  comment_list: defineOperation({
    title: "List an artifact's comments",
    description: "The comments on an artifact you may read, oldest first, paged; a deleted one is a tombstone naming who deleted it and when.",
    input: CommentListInput,
    output: CommentList,
    mutates: false,
    errors: ["not_found", "gone"],
    run: listComments,
  }),
  comment_delete: defineOperation({
    notOn: { mcp: "deleting a comment is a person's call, made on the web, REST or the CLI" },
    title: "Delete a comment",
    description: "Delete a comment: its author, the artifact's owner user, or an administrator. Leaves a tombstone (who deleted it, when) without the words.",
    input: CommentDeleteInput,
    output: Comment,
    mutates: true,
    permission: "artifacts:write",
    errors: ["forbidden", "not_found", "gone"],
    run: deleteComment,
  }),
} as const;
