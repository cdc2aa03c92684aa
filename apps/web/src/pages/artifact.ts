import { type Artifact, artifactProvenanceLine, type Comment, lifetimeText, readableInstant, receiptCardOf, STATE_WORDS } from "@cairn/core";
import { html, raw } from "hono/html";
import { renderMarkdown } from "../markdown.js";
import type { AskForm } from "./ask.js";
import { type LinkTitles, receiptCard, titleOf } from "./card.js";
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
  /** For a signed-in viewer who may answer an open ask: its buttons post here. Without it (a share page) the ask is read-only. */
  askForm?: AskForm | null;
  /** What the last form did, said at the top of the page (the confirmation after a POST). */
  notice?: string | null;
  /** The share link field and the Retain and Assign forms, for a signed-in viewer. */
  actions?: Markup | string;
  /** Titles of the receipts it follows and that follow it. */
  titles?: LinkTitles;
  /** The comments, oldest first, and the form to add one (SPEC §34). */
  comments?: Markup | string;
}

const when = (iso: string) => html`<time class="when" datetime="${iso}">${readableInstant(iso)}</time>`;

/**
 * One artifact: whose claim it is, the title, the card (receipts) or the body (others),
 * what a signed-in person can do with it, then the facts once. The rendered body of a
 * receipt is not repeated: it is the raw markdown behind `rawHref`. Produced-by, follows
 * and followed-by are already filtered by core (§9, §20).
 */
export function artifactPage(artifact: Artifact, parts: ArtifactPageParts, chrome: Chrome | null, now = new Date()): Markup {
  const card = receiptCardOf(artifact, now);
  const titles = parts.titles ?? new Map<string, string>();
  return layout(
    artifact.title,
    html`${parts.notice ? html`<p class="notice" role="status" data-part="notice">${parts.notice}</p>` : ""}<article>
<p class="assertion" data-field="assertion">${card ? card.header : artifactProvenanceLine(artifact)}</p>
${titleOf(artifact.title, card)}
${card ? receiptCard(card, parts.underChip ?? "", card.tldr.text === artifact.title, titles, parts.askForm ?? null) : bodyOf(artifact)}
${parts.comments ?? ""}
${parts.actions ?? ""}
<section aria-labelledby="facts-heading">
<h2 id="facts-heading">About this ${card ? "receipt" : "artifact"}</h2>
<dl class="facts">
<dt>Owner</dt><dd>${artifact.owner}</dd>
<dt>Created</dt><dd>${when(artifact.created_at)}</dd>
<dt>Lifetime</dt><dd>${artifact.expires_at && !artifact.retained ? html`${STATE_WORDS.expires} ${when(artifact.expires_at)}` : lifetimeText(artifact)}</dd>
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
${artifact.follows ? html`<dt>Follows</dt><dd><a data-field="follows" href="/a/${encodeURIComponent(artifact.follows.id)}">${titles.get(artifact.follows.id) ?? artifact.follows.id}</a></dd>` : ""}
${
  artifact.followed_by.length > 0
    ? html`<dt>Followed by</dt><dd>${artifact.followed_by.map((id, i) => html`${i > 0 ? ", " : ""}<a href="/a/${encodeURIComponent(id)}">${titles.get(id) ?? id}</a>`)}</dd>`
    : ""
}
<dt>Checksum</dt><dd><code data-field="checksum">${artifact.checksum}</code></dd>
<dt>Raw</dt><dd><a href="${parts.rawHref}">${artifact.share_type === "markdown" ? "View the raw markdown" : "View the raw body"}</a></dd>
</dl>
</section>
</article>`,
    chrome,
  );
}

/**
 * What a signed-in person can do on the artifact page (SPEC §20): copy the share link (a
 * plain read-only field anyone can select; the Copy button appears only where the page's
 * one script runs), retain it, name who must act, and move it to one of the viewer's teams
 * (SPEC §34). Each form posts with the form token.
 */
export function artifactActions(artifact: Artifact, candidates: readonly string[], formToken: string, moveTo: readonly string[] = []): Markup {
  const id = encodeURIComponent(artifact.id);
  const csrf = html`<input type="hidden" name="csrf" value="${formToken}">`;
  return html`<section class="actions" aria-labelledby="actions-heading">
<h2 id="actions-heading">Share and act</h2>
<div class="share"><label for="share-link">Share link (anyone holding it can read this)</label>
<div class="copy"><input id="share-link" data-part="share-link" readonly value="${artifact.url}"><button type="button" class="quiet" data-copy="share-link" hidden>Copy</button></div></div>
<div class="forms">
${
  artifact.retained
    ? html`<p class="muted" data-part="retained">${lifetimeText(artifact)}</p>`
    : html`<form method="post" action="/a/${id}/retain">${csrf}<button type="submit">Retain</button><span class="muted"> Keep it past ${artifact.expires_at ? readableInstant(artifact.expires_at) : "its expiry"}.</span></form>`
}
<form class="assign" method="post" action="/a/${id}/assign">${csrf}
<div><label for="assignee">Who must act</label><select id="assignee" name="assignee">
<option value=""${artifact.assignee === null ? html` selected` : ""}>Nobody</option>
${(artifact.assignee !== null && !candidates.includes(artifact.assignee) ? [artifact.assignee, ...candidates] : candidates).map((name) => html`<option value="${name}"${artifact.assignee === name ? html` selected` : ""}>${name}</option>`)}
</select></div>
<div><button type="submit">Assign</button></div>
</form>
${
  moveTo.length === 0
    ? ""
    : html`<form class="assign" method="post" action="/a/${id}/transfer">${csrf}
<div><label for="transfer-owner">Move to a team</label><select id="transfer-owner" name="owner">${moveTo.map((t) => html`<option value="${t}">${t}</option>`)}</select></div>
<div><button type="submit">Move</button></div>
</form>`
}
</div>
</section>
<script src="/assets/copy.js" defer></script>`;
}

/** Who wrote a comment: a person by name, an agent as the agent's, with its token name. */
const authorOf = (c: Comment) =>
  c.agent ? html`<span class="agent-label" data-part="agent">agent</span> ${c.token_name} <span class="muted">for ${c.author}</span>` : c.author;

/**
 * The comments on an artifact, oldest first, rendered with the page's markdown renderer
 * (sanitized), then the form to add one. A deleted comment is a tombstone without its words.
 * Its author, or the owner user, may delete it.
 */
export function commentsSection(
  artifactId: string,
  comments: readonly Comment[],
  more: boolean,
  viewer: { name: string; owner: boolean },
  formToken: string,
): Markup {
  const id = encodeURIComponent(artifactId);
  const csrf = html`<input type="hidden" name="csrf" value="${formToken}">`;
  return html`<section class="comments" aria-labelledby="comments-heading" data-part="comments">
<h2 id="comments-heading">Comments${comments.length > 0 ? html` <span class="muted">(${comments.length}${more ? "+" : ""})</span>` : ""}</h2>
${comments.length === 0 ? html`<p class="muted">No comments yet.</p>` : ""}
<ol class="comment-list">
${comments.map((c) =>
  c.deleted
    ? html`<li class="comment deleted" id="${c.id}" data-comment="${c.id}"><p class="muted">Deleted by ${c.deleted.by} ${when(c.deleted.at)}.</p></li>`
    : html`<li class="comment" id="${c.id}" data-comment="${c.id}"><p class="comment-head"><strong data-field="author">${authorOf(c)}</strong> · ${when(c.created_at)}</p>
<div class="body">${raw(renderMarkdown(c.body ?? ""))}</div>
${
  c.author === viewer.name || viewer.owner
    ? html`<form method="post" action="/a/${id}/comments/${encodeURIComponent(c.id)}/delete">${csrf}<button type="submit" class="quiet">Delete</button></form>`
    : ""
}</li>`,
)}
</ol>
${more ? html`<p class="muted">Older comments first; the rest: <code>cairn comments ${artifactId}</code>.</p>` : ""}
<form class="comment-form" method="post" action="/a/${id}/comments">${csrf}
<label for="comment-body">Add a comment <span class="muted">(markdown, at most 4,000 characters)</span></label>
<textarea id="comment-body" name="body" rows="3" maxlength="4000" required></textarea>
<div><button type="submit">Comment</button></div>
</form>
</section>`;
}
