import { RUN_FILTER_CHOICES, type RunRowView } from "@cairn/core";
import { html } from "hono/html";
import { type Chrome, layout, type Markup } from "./layout.js";

/** The /runs filters (SPEC §28), echoed into the form and the pager links. */
export const RUN_QUERY_KEYS = ["q", "agent", "model", "status", "error", "conversation", "since", "before"] as const;
export type RunsQuery = { [K in (typeof RUN_QUERY_KEYS)[number]]?: string } & { cursor?: string };

export const runsHref = (query: RunsQuery, cursor?: string) => {
  const params = new URLSearchParams();
  for (const key of RUN_QUERY_KEYS) {
    const v = query[key];
    if (v) params.set(key, v);
  }
  if (cursor) params.set("cursor", cursor);
  const s = params.toString();
  return s ? `/runs?${s}` : "/runs";
};

const option = (value: string, label: string, current: string | undefined) =>
  html`<option value="${value}"${current === value ? html` selected` : ""}>${label}</option>`;

const field = (key: keyof RunsQuery, label: string, value: string | undefined, extra: { type?: string; placeholder?: string } = {}) =>
  html`<div><label for="r-${key}">${label}</label><input id="r-${key}" name="${key}" type="${extra.type ?? "text"}" value="${value ?? ""}"${
    extra.placeholder ? html` placeholder="${extra.placeholder}"` : ""
  }></div>`;

function filters(query: RunsQuery) {
  return html`<form class="filters" method="get" action="/runs" role="search" aria-label="Filter runs">
${field("q", "Name or trace id", query.q, { type: "search", placeholder: "e.g. travel-planner" })}
${field("agent", "Agent", query.agent, { placeholder: "agent or token name" })}
${field("model", "Model", query.model, { placeholder: "e.g. gpt-4o" })}
${RUN_FILTER_CHOICES.map(
  (f) =>
    html`<div><label for="r-${f.key}">${f.label}</label><select id="r-${f.key}" name="${f.key}">${option("", "Any", query[f.key])}${f.options.map((o) => option(o.value, o.label, query[f.key]))}</select></div>`,
)}
${field("since", "Since", query.since, { placeholder: "2d, yesterday, 2026-12-01" })}
${field("before", "Before", query.before, { placeholder: "36h, today, 2026-12-01" })}
${query.conversation ? html`<input type="hidden" name="conversation" value="${query.conversation}">` : ""}
<div><button type="submit">Filter</button></div>
</form>`;
}

function row(r: RunRowView) {
  return html`<li>
<a class="title" href="/runs/${encodeURIComponent(r.id)}">${r.name}</a>
<span class="tags"><span class="pill${r.totals.error ? " bad" : " calm"}">${r.totals.state}${r.totals.errors ? html` · ${r.totals.errors}` : ""}</span>${r.totals.facts.map(
    (f) => html`<span>${f}</span>`,
  )}</span>
<span class="tags"><span>${r.owner}</span><span><time datetime="${r.created_at}">${r.age}</time></span>${
    r.conversation_id ? html`<span><a href="${runsHref({ conversation: r.conversation_id })}">conversation</a></span>` : ""
  }${r.trace_id ? html`<span>trace <code>${r.trace_id}</code></span>` : ""}</span>
</li>`;
}

/** Runs the viewer may read, newest first, with their state and totals: started with run_create or made from OpenTelemetry traces. */
export function runsPage(rows: RunRowView[], nextCursor: string | null, query: RunsQuery, chrome: Chrome): Markup {
  const filtered = RUN_QUERY_KEYS.some((k) => query[k]);
  return layout(
    "Runs",
    html`<h1>${query.conversation ? "Runs of one conversation" : "Runs"}</h1>
${query.conversation ? html`<p class="meta">Conversation <code>${query.conversation}</code> · <a href="/runs">all runs</a></p>` : ""}
${filters(query)}
${
  rows.length === 0
    ? html`<p class="muted">${filtered ? "No run matches these filters." : "No runs yet. Point an OpenTelemetry OTLP/HTTP exporter at /v1/traces, or start one with cairn run start."}</p>`
    : html`<ol class="rows" aria-label="Runs, newest first">${rows.map(row)}</ol>`
}
<nav class="pager" aria-label="Pages">${query.cursor ? html`<a href="${runsHref(query)}">Newest</a>` : ""}${
      nextCursor ? html`<a href="${runsHref(query, nextCursor)}" rel="next">Older</a>` : ""
    }</nav>`,
    { ...chrome, current: "runs" },
  );
}
