import type { RunRowView } from "@cairn/core";
import { html } from "hono/html";
import { type Chrome, layout, type Markup } from "./layout.js";

const listHref = (q: string | undefined, cursor?: string) => {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (cursor) params.set("cursor", cursor);
  const s = params.toString();
  return s ? `/runs?${s}` : "/runs";
};

function row(r: RunRowView) {
  return html`<li>
<a class="title" href="/runs/${encodeURIComponent(r.id)}">${r.name}</a>
<span class="tags"><span${r.has_errors ? html` class="due"` : ""}>${r.counts}</span><span>${r.status}</span><span>${r.owner}</span><span><time datetime="${r.created_at}">${r.age}</time></span>${
    r.trace_id ? html`<span>trace <code>${r.trace_id}</code></span>` : ""
  }</span>
</li>`;
}

/** Runs the viewer may read, newest first: started with run_create or made from OpenTelemetry traces. */
export function runsPage(rows: RunRowView[], nextCursor: string | null, query: { q?: string; cursor?: string }, chrome: Chrome): Markup {
  return layout(
    "Runs",
    html`<h1>Runs</h1>
<form class="filters" method="get" action="/runs" role="search" aria-label="Search runs">
<div><label for="r-q">Name or trace id</label><input id="r-q" name="q" type="search" value="${query.q ?? ""}" placeholder="e.g. travel-planner"></div>
<div><button type="submit">Search</button></div>
</form>
${
  rows.length === 0
    ? html`<p class="muted">${query.q ? "No run matches." : "No runs yet. Point an OpenTelemetry OTLP/HTTP exporter at /v1/traces, or start one with cairn run start."}</p>`
    : html`<ol class="rows" aria-label="Runs, newest first">${rows.map(row)}</ol>`
}
<nav class="pager" aria-label="Pages">${query.cursor ? html`<a href="${listHref(query.q)}">Newest</a>` : ""}${
      nextCursor ? html`<a href="${listHref(query.q, nextCursor)}" rel="next">Older</a>` : ""
    }</nav>`,
    { ...chrome, current: "runs" },
  );
}
