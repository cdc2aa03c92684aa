import { type Artifact, provenanceLine, RECEIPT_SCHEMA_ID } from "@cairn/core";
import { html, raw } from "hono/html";
import { renderMarkdown } from "../markdown.js";
import { receiptCard } from "./card.js";
import { layout } from "./layout.js";

function bodyOf(artifact: Artifact) {
  if (artifact.share_type === "markdown") return raw(renderMarkdown(artifact.body));
  return html`<pre>${artifact.body}</pre>`;
}

/** One artifact as a page: whose claim it is, the card for a receipt, then the body. */
export function artifactPage(artifact: Artifact) {
  const isReceipt = artifact.metadata?.schema === RECEIPT_SCHEMA_ID;
  const expires = artifact.expires_at ? `expires ${artifact.expires_at.slice(0, 10)}` : "retained";
  return layout(
    artifact.title,
    html`<header class="assertion" data-field="assertion">${provenanceLine(artifact.provenance, isReceipt ? "Receipt" : "Artifact")}</header>
<h1 data-field="title">${artifact.title}</h1>
${isReceipt ? receiptCard(artifact) : ""}
${
  artifact.produced_by.length > 0
    ? html`<p class="meta">Produced by run ${artifact.produced_by.map((r) => html`<span data-field="produced_by">${r.name} (${r.id})</span> `)}</p>`
    : ""
}
${artifact.follows ? html`<p class="meta">Follows receipt <span data-field="follows">${artifact.follows.id}</span></p>` : ""}
<article class="body">${bodyOf(artifact)}</article>
<p class="meta"><span data-field="checksum">${artifact.checksum}</span> · created ${artifact.created_at.slice(0, 10)} · ${expires}</p>`,
  );
}

export function messagePage(title: string, message: string) {
  return layout(title, html`<h1>${title}</h1><p>${message}</p>`);
}
