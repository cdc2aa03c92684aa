import { type AttributeView, readableInstant, type RunTimelineView } from "@cairn/core";
import { html } from "hono/html";
import { type Chrome, layout, type Markup } from "./layout.js";

/** What the page knows of each artifact a span produced: its title, or that it can no longer be read. */
export type ProducedTitles = ReadonlyMap<string, string | null>;

const percent = (x: number) => Math.min(100, Math.max(0, Math.round(x * 100)));

function bar(offset: number, width: number) {
  const w = Math.max(1, percent(width));
  const o = Math.min(percent(offset), 100 - w);
  return html`<div class="bar" aria-hidden="true"><span class="o${o} w${w}"></span></div>`;
}

/** "Produced <title>", linked while the artifact can be read. */
function producedLine(id: string, produced: ProducedTitles) {
  const title = produced.get(id);
  return html`<span class="meta">Produced ${title ? html`<a href="/a/${encodeURIComponent(id)}">${title}</a>` : html`${id} (no longer readable)`}</span>`;
}

/** Attributes as a definition list; a long value is folded behind its first line (no script needed). */
function attributeList(attributes: readonly AttributeView[], label: string) {
  if (attributes.length === 0) return "";
  return html`<dl class="facts attrs" aria-label="${label}">${attributes.map(
    (a) => html`<dt><code>${a.key}</code></dt><dd>${a.folded ? html`<details><summary>${a.preview}</summary><pre>${a.text}</pre></details>` : html`<span class="text">${a.text}</span>`}</dd>`,
  )}</dl>`;
}

/** A run: its spans as a timeline, each with its status, its attributes and the artifact it produced. */
export function runPage(run: RunTimelineView, produced: ProducedTitles, chrome: Chrome): Markup {
  return layout(
    `Run ${run.name}`,
    html`<p class="assertion">Run · ${run.owner} · ${run.status}</p>
<h1>${run.name}</h1>
<p class="meta">${run.summary}${run.started_at ? html` · started <time datetime="${run.started_at}">${readableInstant(run.started_at)}</time>` : ""}</p>
${run.trace_id ? html`<p class="meta">Trace <code>${run.trace_id}</code></p>` : ""}
${run.resource.length > 0 ? html`<details class="resource"><summary>Resource (${run.resource.length} attribute${run.resource.length === 1 ? "" : "s"})</summary>${attributeList(run.resource, "Resource attributes")}</details>` : ""}
${
  run.spans.length === 0
    ? html`<p class="muted">This run has no spans yet.</p>`
    : html`<ol class="timeline" aria-label="Spans in start order">${run.spans.map((s) => {
        return html`<li class="d${Math.min(s.depth, 8)}">
<span><strong>${s.name}</strong> <span class="meta">· ${s.duration} · <time datetime="${s.start_time}">${s.start_time.slice(11, 19)}</time></span>${
          s.status ? html` <span class="pill${s.status.code === "ok" ? " calm" : " bad"}">${s.status.label}${s.status.message ? html`: ${s.status.message}` : ""}</span>` : ""
        }</span>
${bar(s.offset, s.width)}
${attributeList(s.attributes, `Attributes of ${s.name}`)}
${[...(s.produced_artifact_id ? [s.produced_artifact_id] : []), ...s.traced_artifact_ids].map((id) => producedLine(id, produced))}
</li>`;
      })}</ol>`
}
${run.unplaced_artifact_ids.length > 0 ? html`<h2>Receipts that named this trace</h2><p class="meta">Their traceparent names a span this run does not hold yet.</p>${run.unplaced_artifact_ids.map((id) => html`<p>${producedLine(id, produced)}</p>`)}` : ""}
<p class="meta">Run id <code>${run.id}</code></p>`,
    chrome,
  );
}
