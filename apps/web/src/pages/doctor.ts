import type { DoctorCheck, DropReceipt } from "@cairn/core";
import { html, raw } from "hono/html";
import { renderInline } from "../markdown.js";
import { type Chrome, layout, type Markup } from "./layout.js";

/** Doctor's checks, then the latest drop receipts with what to do about each. */
export function doctorPage(checks: DoctorCheck[], drops: DropReceipt[], chrome: Chrome): Markup {
  return layout(
    "Doctor",
    html`<h1>Doctor</h1>
<ul class="checks" aria-label="Checks">${checks.map(
      (c) => html`<li><p><span class="status ${c.status}">${c.status}</span> <strong>${c.name}</strong></p><p>${raw(renderInline(c.summary))}</p>${
        c.next_action ? html`<p class="meta">Next: ${raw(renderInline(c.next_action))}</p>` : ""
      }</li>`,
    )}</ul>
<h2>Latest drops</h2>
${
  drops.length === 0
    ? html`<p class="muted">No receipt was refused in the last 7 days.</p>`
    : html`<ol class="rows" aria-label="Drop receipts, newest first">${drops.map(
        (d) => html`<li>
<span class="title">${d.category}${d.title ? html` · ${d.title}` : ""}</span>
<span>${raw(renderInline(d.cause))}</span>
<span class="meta">Next: ${raw(renderInline(d.next_action))}</span>
<span class="tags">${d.fields.length > 0 ? html`<span>fields ${d.fields.join(", ")}</span>` : ""}<span>${d.owner}</span><span>via ${d.surface} by ${d.actor.name}</span><span><time datetime="${d.created_at}">${d.created_at.slice(0, 16).replace("T", " ")} UTC</time></span></span>
</li>`,
      )}</ol>`
}`,
    { ...chrome, current: "doctor" },
  );
}
