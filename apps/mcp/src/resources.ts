import {
  A2UI_MIME_TYPE,
  ARTIFACT_RESOURCE_TEMPLATE,
  type Artifact,
  artifactIdOfResourceUri,
  artifactResourceUri,
  type Cairn,
  CairnError,
  type Logger,
  RUN_RESOURCE_TEMPLATE,
  runIdOfResourceUri,
  type ServiceContext,
  SHARE_TYPE_MIME,
} from "@cairn/core";
import type { ListResourcesResult, ListResourceTemplatesResult, ReadResourceResult, Resource, ResourceLink } from "@modelcontextprotocol/server";
import { errorBodyOf, type FailureSite, requestErrorCode } from "./adapter.js";
import { RECEIPT_CARD_RESOURCE } from "./app/resource.js";
import { RpcError } from "./rpc.js";
import type { ToolName } from "./tools.js";

/** A receipt's A2UI rendering: the artifact's resource uri and `/a2ui`. */
export const A2UI_RESOURCE_TEMPLATE = `${ARTIFACT_RESOURCE_TEMPLATE}/a2ui`;
const A2UI_URI = /^mcp:\/\/cairn\/artifacts\/([^/]+)\/a2ui$/;

/** Three templates: every artifact the caller may read (receipts included), and every run, is a resource. */
export const RESOURCE_TEMPLATES: ListResourceTemplatesResult = {
  resourceTemplates: [
    {
      uriTemplate: ARTIFACT_RESOURCE_TEMPLATE,
      name: "artifact",
      title: "Cairn artifact",
      description:
        "An artifact you can read (you own it, or a team you belong to does), by id. The body comes with its share type's MIME type; evidence links of the form mcp://cairn/artifacts/<id> name these.",
    },
    {
      uriTemplate: A2UI_RESOURCE_TEMPLATE,
      name: "receipt-a2ui",
      title: "Cairn receipt as A2UI",
      description:
        "A receipt you can read, as A2UI v0.9.1 messages (createSurface, updateComponents, updateDataModel) over the basic catalog: the card, in the web card's order, for hosts that render A2UI.",
      mimeType: A2UI_MIME_TYPE,
    },
    {
      uriTemplate: RUN_RESOURCE_TEMPLATE,
      name: "run",
      title: "Cairn run",
      description:
        "A run you can read (yours or a team's), by id (run_…): the run object of run_read as JSON, its spans with status and attributes. Evidence links of the form mcp://cairn/runs/<id> name these.",
      mimeType: "application/json",
    },
  ],
};

/** What a client shows for an artifact: the id as the name, the title as the title. */
function describe(artifact: Omit<Artifact, "body">): Resource {
  const kind = artifact.metadata ? `${artifact.metadata.schema} receipt` : `${artifact.share_type} artifact`;
  const expiry = artifact.expires_at ? `expires ${artifact.expires_at}` : "retained";
  return {
    uri: artifactResourceUri(artifact.id),
    name: artifact.id,
    title: artifact.title,
    mimeType: SHARE_TYPE_MIME[artifact.share_type],
    description: `${kind} of ${artifact.owner}, created ${artifact.created_at}, ${expiry}.`,
  };
}

/** Tools whose answer is a newly stored artifact: they add a `resource_link` to it. */
export const LINKING_TOOLS: ReadonlySet<string> = new Set<ToolName>(["receipt_create", "artifact_create"]);

/** The `resource_link` a create answers with, so a client can read (or show) what was stored. */
export const resourceLinkOf = (artifact: Artifact): ResourceLink => ({ type: "resource_link", ...describe(artifact) });

/** Where a failure is logged, and what it is logged under. */
export interface Reporting {
  log: Logger;
  site: FailureSite;
}

/** A failed resources/* request as the JSON-RPC error MCP expects, with REST's body as data. */
function requestFailure(err: unknown, { log, site }: Reporting, uri?: string): RpcError {
  const { code, body } = errorBodyOf(err, log, site);
  const message = uri && (code === "not_found" || code === "gone") ? `${uri}: ${body.message}` : body.message;
  return new RpcError(requestErrorCode(code), message, {
    ...(uri && { uri }),
    error: body,
    ...(site.requestId !== undefined && { request_id: site.requestId }),
  });
}

/** resources/read: the artifact's body or the run as JSON, through core's read rules (another owner's artifact reads as not found, an expired one as gone). */
export async function readResource(cairn: Cairn, ctx: ServiceContext, uri: string, reporting: Reporting): Promise<ReadResourceResult> {
  const id = artifactIdOfResourceUri(uri);
  const runId = runIdOfResourceUri(uri);
  const a2uiOf = A2UI_URI.exec(uri)?.[1];
  try {
    if (a2uiOf !== undefined) {
      const messages = await cairn.invoke("artifact_a2ui", ctx, { id: decodeURIComponent(a2uiOf) });
      return { contents: [{ uri, mimeType: A2UI_MIME_TYPE, text: JSON.stringify(messages) }] };
    }
    if (runId !== null) {
      const run = await cairn.invoke("run_read", ctx, { run_id: runId });
      return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(run) }] };
    }
    if (id === null) {
      throw new CairnError(
        "not_found",
        `Cairn serves only ${ARTIFACT_RESOURCE_TEMPLATE} (and ${A2UI_RESOURCE_TEMPLATE} for a receipt), where id is an artifact id (art_…), and ${RUN_RESOURCE_TEMPLATE}, where id is a run id (run_…).`,
      );
    }
    const artifact = await cairn.invoke("artifact_read", ctx, { id });
    return { contents: [{ uri, mimeType: SHARE_TYPE_MIME[artifact.share_type], text: artifact.body }] };
  } catch (err) {
    throw requestFailure(err, reporting, uri);
  }
}

/** resources/list: the caller's newest artifacts, one search page at a time (the cursor is search's own). */
export async function listResources(cairn: Cairn, ctx: ServiceContext, cursor: string | undefined, reporting: Reporting): Promise<ListResourcesResult> {
  try {
    const page = await cairn.invoke("artifact_search", ctx, { fields: "summary", ...(cursor !== undefined && { cursor }) });
    // The card (an MCP App) heads the first page, so a host can fetch it ahead of a tool call.
    const first = cursor === undefined ? [RECEIPT_CARD_RESOURCE] : [];
    return { resources: [...first, ...page.items.map(describe)], ...(page.next_cursor && { nextCursor: page.next_cursor }) };
  } catch (err) {
    throw requestFailure(err, reporting);
  }
}
