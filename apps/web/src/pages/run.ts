import { type AttributeView, type RunPageView, readableInstant, type SpanTreeNode } from "@cairn/core";
import { html } from "hono/html";
import { type Chrome, layout, type Markup } from "./layout.js";
import { runsHref } from "./runs.js";

/** What the page knows of each artifact the run produced: its title, or that it can no longer be read. */
export type ProducedTitles = ReadonlyMap<string, string | null>;

const percent = (x: number) => Math.min(100, Math.max(0, Math.round(x * 100)));

function bar(offset: number, width: number) {
  const w = Math.max(1, percent(width));
  const o = Math.min(percent(offset), 100 - w);
  return html`<div class="bar" aria-hidden="true"><span class="o${o} w${w}"></span></div>`;
}

/** A produced receipt's title, linked while the artifact can be read. */
function receiptLink(id: string, produced: ProducedTitles) {
  const title = produced.get(id);
  return title ? html`<a href="/a/${encodeURIComponent(id)}">${title}</a>` : html`<code>${id}</code> (no longer readable)`;
}

/** Attributes as a definition list; a long value is folded behind its first line (no script needed). */
function attributeList(attributes: readonly AttributeView[], label: string) {
  if (attributes.length === 0) return "";
  return html`<dl class="facts attrs" aria-label="${label}">${attributes.map(
    (a) =>
      html`<dt><code>${a.key}</code></dt><dd>${a.folded ? html`<details><summary>${a.preview}</summary><pre>${a.text}</pre></details>` : html`<span class="text">${a.text}</span>`}</dd>`,
  )}</dl>`;
}

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/**
 * One span and, folded in a <details>, the spans under it. Attributes are folded too: a
 * page of 500 spans reads as a tree of names, statuses and times until opened.
 */
function spanNode(n: SpanTreeNode, view: RunPageView, produced: ProducedTitles): Markup {
  const s = n.span;
  const made = view.produced_by_span.get(s.span_id) ?? [];
  return html`<li>
<div class="span">${n.continued ? html`<span class="meta">under a span on an earlier page</span>` : ""}<span><strong>${s.name}</strong> <span class="meta">· ${s.duration} · <time datetime="${s.start_time}">${s.start_time.slice(11, 23)}</time></span>${
    s.status
      ? html` <span class="pill${s.status.code === "ok" ? " calm" : " bad"}">${s.status.label}${s.status.message ? html`: ${s.status.message}` : ""}</span>`
      : ""
  }</span>
${bar(s.offset, s.width)}
${made.length > 0 ? html`<span class="meta">Produced <a href="#${`r-${made[0]}`}">${made.length === 1 ? "a receipt" : plural(made.length, "receipt")}</a> (listed above)</span>` : ""}
${s.attributes.length > 0 ? html`<details class="attrs-fold"><summary>${plural(s.attributes.length, "attribute")}</summary>${attributeList(s.attributes, `Attributes of ${s.name}`)}</details>` : ""}</div>
${
  n.children.length > 0
    ? html`<details class="children"${n.open ? html` open` : ""}><summary>${plural(n.descendants, "span")} under ${s.name}</summary><ol class="tree">${n.children.map(
        (c) => spanNode(c, view, produced),
      )}</ol></details>`
    : ""
}
</li>` as Markup;
}

/**
 * A run (SPEC §28): its state and totals and the receipts it produced at the top, each
 * once; the runs of its conversation; then its spans as a tree, a page at a time.
 */
export function runPage(view: RunPageView, produced: ProducedTitles, chrome: Chrome): Markup {
  const run = view.timeline;
  const t = view.totals;
  const base = `/runs/${encodeURIComponent(run.id)}`;
  const nextHref = (cursor: string) => `${base}?${new URLSearchParams({ spans: cursor, at: String(view.at + view.shown) })}`;
  return layout(
    `Run ${run.name}`,
    html`<p class="assertion">Run · ${run.owner}</p>
<h1>${run.name}</h1>
<section class="totals" aria-label="State and totals">
<p><span class="pill${t.error ? " bad" : " calm"}">${t.state}${t.errors ? html` · ${t.errors}` : ""}</span>${
      run.started_at ? html` <span class="meta">started <time datetime="${run.started_at}">${readableInstant(run.started_at)}</time></span>` : ""
    }</p>
<dl class="facts">${t.labelled.map((f) => html`<dt>${f.label}</dt><dd>${f.value}</dd>`)}${
      run.trace_id ? html`<dt>Trace</dt><dd><code>${run.trace_id}</code></dd>` : ""
    }${view.conversation_id ? html`<dt>Conversation</dt><dd><a href="${runsHref({ conversation: view.conversation_id })}"><code>${view.conversation_id}</code></a></dd>` : ""}</dl>
</section>
<h2>Receipts it produced</h2>
${
  view.produced.length === 0
    ? html`<p class="muted">None yet. A span naming a receipt (cairn.artifact.id) or a receipt sent with this trace's traceparent shows here.</p>`
    : html`<ul class="plain produced">${view.produced.map(
        (p) =>
          html`<li id="${`r-${p.artifact_id}`}">${receiptLink(p.artifact_id, produced)} <span class="meta">· by ${p.linked_by}${p.span_id ? html` · span <code>${p.span_id}</code>` : ""}</span></li>`,
      )}</ul>`
}
${
  view.siblings.length > 0
    ? html`<h2>In the same conversation</h2><ul class="plain">${view.siblings.map(
        (r) =>
          html`<li><a href="/runs/${encodeURIComponent(r.id)}">${r.name}</a> <span class="meta">· ${r.state}${r.error ? " · error" : ""} · <time datetime="${r.created_at}">${r.age}</time></span></li>`,
      )}</ul>`
    : ""
}
${run.resource.length > 0 ? html`<details class="resource"><summary>Resource (${plural(run.resource.length, "attribute")})</summary>${attributeList(run.resource, "Resource attributes")}</details>` : ""}
<h2>Spans</h2>
${
  view.total === 0
    ? html`<p class="muted">This run has no spans yet.</p>`
    : html`<p class="meta">${
        view.total > view.shown
          ? `Spans ${(view.at + 1).toLocaleString("en-US")}–${(view.at + view.shown).toLocaleString("en-US")} of ${view.total.toLocaleString("en-US")}, by start time`
          : `${plural(view.total, "span")}`
      }</p>
<ol class="tree" aria-label="Spans as a tree">${view.tree.map((n) => spanNode(n, view, produced))}</ol>
<nav class="pager" aria-label="Span pages">${view.at > 0 ? html`<a href="${base}">First spans</a>` : ""}${
        view.next_cursor !== null ? html`<a href="${nextHref(view.next_cursor)}" rel="next">Next spans</a>` : ""
      }</nav>`
}
<p class="meta">Run id <code>${run.id}</code></p>`,
    { ...chrome, current: "runs" },
  );
}
