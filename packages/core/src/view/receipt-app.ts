import type { Artifact } from "../artifact/schemas.js";
import { type ReceiptCardView, receiptCardOf } from "./card.js";

/** The words of the card's links to the receipt's page, where a person acts (no writes from inside a chat host). */
export const RECEIPT_PAGE_LABELS = {
  open: "Open the receipt",
  acknowledge: "Acknowledge",
  retain: "Retain",
  assign: "Assign",
  /** Said once beside the links: what they do. */
  hint: "Acknowledge, Retain and Assign open the receipt's page in Cairn, where you are signed in.",
  /** What a card shows for an artifact that is not a receipt. */
  notReceipt: "Not a receipt: there is no card to show. Its body is in the tool result.",
  /** What a card shows while it waits for the tool's result. */
  waiting: "Waiting for the receipt…",
} as const;

/** One link to the receipt's page, and what it is for. */
export interface ReceiptPageLink {
  action: "open" | "acknowledge" | "retain" | "assign";
  label: string;
  href: string;
}

/**
 * A receipt as a rendering outside the web shows it (the MCP App card, the A2UI messages):
 * the card view, what it is, and the links that take a person to its page. Built by core
 * so every rendering says the same words in the same order (SPEC §25).
 */
export interface ReceiptRenderView {
  id: string;
  title: string;
  /** The receipt's page in Cairn (`/a/<id>`), where Acknowledge, Retain and Assign are. */
  page: string;
  card: ReceiptCardView;
  /** Open, then Acknowledge (only when it asks a person for something), Retain (only while it expires), Assign. */
  links: ReceiptPageLink[];
  hint: string;
}

/** The render view of a receipt for a reader signed in at `publicUrl`, or null for any other artifact. */
export function receiptRenderViewOf(artifact: Artifact, publicUrl: string, now: Date = new Date()): ReceiptRenderView | null {
  const card = receiptCardOf(artifact, now);
  if (!card) return null;
  const page = `${publicUrl.replace(/\/+$/, "")}/a/${encodeURIComponent(artifact.id)}`;
  const L = RECEIPT_PAGE_LABELS;
  const link = (action: ReceiptPageLink["action"]): ReceiptPageLink => ({ action, label: L[action], href: page });
  const links = [link("open")];
  if (card.action.needed) links.push(link("acknowledge"));
  if (artifact.expires_at !== null) links.push(link("retain"));
  links.push(link("assign"));
  return { id: artifact.id, title: artifact.title, page, card, links, hint: L.hint };
}
