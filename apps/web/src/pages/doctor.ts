import { type DoctorCheck, type DropReceipt, readableInstant } from "@cairn/core";
import { html, raw } from "hono/html";
import { renderInline } from "../markdown.js";
import { type Chrome, layout, type Markup } from "./layout.js";

/** Doctor's checks, then the latest drop receipts with what to do about each, and a button to dismiss the open ones (SPEC §24). */
export function doctorPage(checks: DoctorCheck[], drops: DropReceipt[], chrome: Chrome, notice: string | null = null): Markup {
  const open = drops.filter((d) => d.state === "open" && d.recoverable);
  const newest = drops[0]?.created_at;
  return layout(
    "Doctor",
    html`${notice ? html`<p class="notice" role="status" data-part="notice">${notice}</p>` : ""}<h1>Doctor</h1>
<ul class="checks" aria-label="Checks">${checks.map(
      (c) =>
        html`<li><p><span class="status ${c.status}">${c.status}</span> <strong>${c.name}</strong></p><p>${raw(renderInline(c.summary))}</p>${
          c.next_action ? html`<p class="meta">Next: ${raw(renderInline(c.next_action))}</p>` : ""
        }</li>`,
    )}</ul>
<h2>Latest drops</h2>
${
  open.length > 0 && newest
    ? html`<form class="dismiss" method="post" action="/doctor/dismiss"><input type="hidden" name="csrf" value="${chrome.formToken}"><input type="hidden" name="before" value="${newest}"><button type="submit">Dismiss these drops</button><span class="muted"> They stay listed, and stop counting toward the Drops warning.</span></form>`
    : ""
}
${
  drops.length === 0
    ? html`<p class="muted">No receipt was refused in the last 7 days.</p>`
    : html`<ol class="rows" aria-label="Drop receipts, newest first">${drops.map(
        (d) => html`<li${d.state === "open" ? "" : html` data-state="${d.state}"`}>
<span class="title">${d.category}${d.title ? html` · ${d.title}` : ""}${d.state === "open" ? "" : html` <span class="pill calm" data-part="drop-state">${d.state}</span>`}</span>
<span>${raw(renderInline(d.cause))}</span>
${d.state === "open" ? html`<span class="meta">Next: ${raw(renderInline(d.next_action))}</span>` : ""}
<span class="tags">${d.fields.length > 0 ? html`<span>fields ${d.fields.join(", ")}</span>` : ""}<span>${d.owner}</span><span>via ${d.surface} by ${d.actor.name}</span><span><time datetime="${d.created_at}">${readableInstant(d.created_at)}</time></span></span>
</li>`,
      )}</ol>`
}`,
    { ...chrome, current: "doctor" },
  );
}
