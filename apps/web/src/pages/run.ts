import type { RunTimelineView } from "@cairn/core";
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

/** A run: its spans as a timeline, each with the artifact it produced. */
export function runPage(run: RunTimelineView, produced: ProducedTitles, chrome: Chrome): Markup {
  return layout(
    `Run ${run.name}`,
    html`<p class="assertion">Run · ${run.owner} · ${run.status}</p>
<h1>${run.name}</h1>
<p class="meta">${run.summary}${run.started_at ? html` · started <time datetime="${run.started_at}">${run.started_at.slice(0, 16).replace("T", " ")} UTC</time>` : ""}</p>
${
  run.spans.length === 0
    ? html`<p class="muted">This run has no spans yet.</p>`
    : html`<ol class="timeline" aria-label="Spans in start order">${run.spans.map((s) => {
        const title = s.produced_artifact_id ? produced.get(s.produced_artifact_id) : undefined;
        return html`<li class="d${Math.min(s.depth, 8)}">
<span><strong>${s.name}</strong> <span class="meta">· ${s.duration} · <time datetime="${s.start_time}">${s.start_time.slice(11, 19)}</time></span></span>
${bar(s.offset, s.width)}
${
  s.produced_artifact_id
    ? html`<span class="meta">Produced ${
        title ? html`<a href="/a/${encodeURIComponent(s.produced_artifact_id)}">${title}</a>` : html`${s.produced_artifact_id} (no longer readable)`
      }</span>`
    : ""
}
</li>`;
      })}</ol>`
}
<p class="meta">Run id <code>${run.id}</code></p>`,
    chrome,
  );
}
