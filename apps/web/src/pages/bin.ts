import { type ArtifactSummaryView, RECEIPT_FILTER_CHOICES, STATE_WORDS } from "@cairn/core";
import { html, raw } from "hono/html";
import { renderInline } from "../markdown.js";
import { type Chrome, layout, type Markup } from "./layout.js";

/** What the bin was asked for, echoed into the filter form and the pager links. */
export interface BinQuery {
  q?: string;
  tag?: string;
  human_action?: string;
  outcome?: string;
  created_after?: string;
}

const queryString = (q: BinQuery, cursor?: string) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v) params.set(k, v);
  if (cursor) params.set("cursor", cursor);
  const s = params.toString();
  return s ? `/?${s}` : "/";
};

const option = (value: string, label: string, current: string | undefined) =>
  html`<option value="${value}"${current === value ? html` selected` : ""}>${label}</option>`;

function filters(q: BinQuery) {
  return html`<form class="filters" method="get" action="/" role="search" aria-label="Filter the bin">
<div><label for="f-q">Search</label><input id="f-q" name="q" type="search" value="${q.q ?? ""}" placeholder="words in title or body"></div>
<div><label for="f-tag">Tag</label><input id="f-tag" name="tag" value="${q.tag ?? ""}" placeholder="e.g. export"></div>
<div><label for="f-created_after">Since</label><input id="f-created_after" name="created_after" value="${q.created_after ?? ""}" placeholder="2d, yesterday, 2026-12-01" list="f-since-words"><datalist id="f-since-words"><option value="today"><option value="yesterday"><option value="2d"><option value="7d"></datalist></div>
${RECEIPT_FILTER_CHOICES.map(
  (f) =>
    html`<div><label for="f-${f.key}">${f.label}</label><select id="f-${f.key}" name="${f.key}">${option("", "Any", q[f.key])}${f.options.map((o) => option(o.value, o.label, q[f.key]))}</select></div>`,
)}
<div><button type="submit">Filter</button></div>
</form>`;
}

function row(a: ArtifactSummaryView) {
  return html`<li>
<a class="title" href="/a/${encodeURIComponent(a.id)}">${a.title}</a>
${a.action ? html`<span><span class="pill${a.action.waiting ? "" : " calm"}">${a.action.label}: ${raw(renderInline(a.action.text))}</span></span>` : ""}
<span class="tags">${a.action?.acknowledged ? html`<span class="acked" data-part="acknowledged">✓ ${a.action.acknowledged}</span>` : ""}${
    a.outcome ? html`<span${a.outcome.due ? html` class="due"` : ""} data-outcome="${a.outcome.state ?? a.outcome.status}">${a.outcome.line}</span>` : ""
  }${a.assignee ? html`<span>${STATE_WORDS.assignee} <strong>${a.assignee}</strong></span>` : ""}<span>${a.owner}</span><span><time datetime="${a.created_at}">${a.age}</time></span></span>
</li>`;
}

/** The bin: everything the viewer may read, newest first, filtered, one page at a time. */
export function binPage(items: ArtifactSummaryView[], nextCursor: string | null, query: BinQuery & { cursor?: string }, chrome: Chrome): Markup {
  const { cursor, ...q } = query;
  const filtered = Object.values(q).some(Boolean);
  return layout(
    "Bin",
    html`<h1>Bin</h1>
${filters(q)}
${
  items.length === 0
    ? html`<p class="muted">${filtered ? "Nothing matches these filters." : "No receipts yet. Agents and scripts leave them with receipt_create (MCP), POST /v1/receipts or cairn receipt."}</p>`
    : html`<ol class="rows" aria-label="Artifacts, newest first">${items.map(row)}</ol>`
}
<nav class="pager" aria-label="Pages">${cursor ? html`<a href="${queryString(q)}">Newest</a>` : ""}${
      nextCursor ? html`<a href="${queryString(q, nextCursor)}" rel="next">Older</a>` : ""
    }</nav>`,
    { ...chrome, current: "bin" },
  );
}
