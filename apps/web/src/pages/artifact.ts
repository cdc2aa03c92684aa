import { type Artifact, provenanceLine, receiptCardOf } from "@cairn/core";
import { html, raw } from "hono/html";
import { renderMarkdown } from "../markdown.js";
import { receiptCard, titleOf } from "./card.js";
import { type Chrome, layout, type Markup } from "./layout.js";

/** A plain artifact's body is its content, shown once: markdown rendered, text and JSON as they are. */
function bodyOf(artifact: Artifact) {
  if (artifact.share_type === "markdown") return html`<div class="body">${raw(renderMarkdown(artifact.body))}</div>`;
  return html`<pre class="body">${artifact.body}</pre>`;
}

export interface ArtifactPageParts {
  /** Where the raw markdown is, one click away. */
  rawHref: string;
  /** Under the chip, for a signed-in viewer who may act: the Acknowledge form. */
  underChip?: Markup | string;
}

/**
 * One artifact: whose claim it is, the title, the card (receipts) or the body (others),
 * then the facts once. The rendered body of a receipt is not repeated: it is the raw
 * markdown behind `rawHref`. Produced-by and follows are already filtered by core (§9).
 */
export function artifactPage(artifact: Artifact, parts: ArtifactPageParts, chrome: Chrome | null): Markup {
  const card = receiptCardOf(artifact);
  const expires = artifact.expires_at ? `Expires ${artifact.expires_at.slice(0, 10)}` : "Retained";
  return layout(
    artifact.title,
    html`<article>
<p class="assertion" data-field="assertion">${card ? card.header : provenanceLine(artifact.provenance, "Artifact")}</p>
${titleOf(artifact.title, card)}
${card ? receiptCard(card, parts.underChip ?? "", card.tldr.text === artifact.title) : bodyOf(artifact)}
<section aria-labelledby="facts-heading">
<h2 id="facts-heading">About this ${card ? "receipt" : "artifact"}</h2>
<dl class="facts">
<dt>Owner</dt><dd>${artifact.owner}</dd>
<dt>Created</dt><dd><time datetime="${artifact.created_at}">${artifact.created_at.slice(0, 16).replace("T", " ")} UTC</time></dd>
<dt>Lifetime</dt><dd>${expires}</dd>
${
  artifact.tags.length > 0
    ? html`<dt>Tags</dt><dd>${artifact.tags.map((t, i) => html`${i > 0 ? ", " : ""}${chrome ? html`<a href="/?tag=${encodeURIComponent(t)}">${t}</a>` : t}`)}</dd>`
    : ""
}
${
  artifact.produced_by.length > 0
    ? html`<dt>Produced by</dt><dd>${artifact.produced_by.map((r, i) => html`${i > 0 ? ", " : ""}<a data-field="produced_by" href="/runs/${encodeURIComponent(r.id)}">run ${r.name}</a>`)}</dd>`
    : ""
}
${artifact.follows ? html`<dt>Follows</dt><dd><a data-field="follows" href="/a/${encodeURIComponent(artifact.follows.id)}">${artifact.follows.id}</a></dd>` : ""}
<dt>Checksum</dt><dd><code data-field="checksum">${artifact.checksum}</code></dd>
<dt>Raw</dt><dd><a href="${parts.rawHref}">${artifact.share_type === "markdown" ? "View the raw markdown" : "View the raw body"}</a></dd>
</dl>
</section>
</article>`,
    chrome,
  );
}
