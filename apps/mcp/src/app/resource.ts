import { type Artifact, receiptRenderViewOf } from "@cairn/core";
import type { CallToolResult, ReadResourceResult, Resource, Tool } from "@modelcontextprotocol/server";
import type { ToolName } from "../tools.js";
import { receiptCardHtml } from "./receipt-card-html.js";

/** The receipt card as an MCP App (extension io.modelcontextprotocol/ui, SPEC §25). */
export const RECEIPT_CARD_URI = "ui://cairn/receipt-card";
/** The MCP Apps MIME type (ext-apps' RESOURCE_MIME_TYPE). */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";
/** Where a tool result carries the card's data: core's render view of the receipt it returns. */
export const CARD_META_KEY = "cairn.dev/card";

/** The tools whose result is one artifact, which the card shows. */
export const APP_TOOLS: ReadonlySet<string> = new Set<ToolName>(["receipt_create", "artifact_read"]);

/** The card's resource `_meta`: a CSP that names no domain (it loads and fetches nothing), a border from the host. */
const RESOURCE_UI_META = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

/** The card as resources/list shows it. */
export const RECEIPT_CARD_RESOURCE: Resource = {
  uri: RECEIPT_CARD_URI,
  name: "receipt-card",
  title: "Receipt card",
  description: "The receipt card (MCP App): renders the receipt a receipt_create or artifact_read result returns.",
  mimeType: APP_MIME_TYPE,
  _meta: RESOURCE_UI_META,
};

let html: string | undefined;

/** resources/read of ui://cairn/receipt-card: the same document for everyone (no data of anyone's in it). */
export function readAppResource(): ReadResourceResult {
  html ??= receiptCardHtml();
  return { contents: [{ uri: RECEIPT_CARD_URI, mimeType: APP_MIME_TYPE, text: html, _meta: RESOURCE_UI_META }] };
}

/** A tool as tools/list shows it: the two that return an artifact declare the card (both the current and the older key). */
export function withAppTool(tool: Tool): Tool {
  if (!APP_TOOLS.has(tool.name)) return tool;
  return { ...tool, _meta: { ...tool._meta, ui: { resourceUri: RECEIPT_CARD_URI }, "ui/resourceUri": RECEIPT_CARD_URI } };
}

/** A successful result of a card tool gains the card's data in `_meta` when its artifact is a receipt; text and structuredContent are unchanged. */
export function withCardData(name: string, result: CallToolResult, publicUrl: string): CallToolResult {
  if (!APP_TOOLS.has(name) || result.isError) return result;
  const view = receiptRenderViewOf(result.structuredContent as unknown as Artifact, publicUrl);
  return view === null ? result : { ...result, _meta: { ...result._meta, [CARD_META_KEY]: view } };
}
