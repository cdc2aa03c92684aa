import type { Artifact } from "@cairn/core";
import { html } from "hono/html";

interface ReceiptFieldsView {
  changed: string;
  affected: string;
  before: string;
  after: string;
  evidence: Array<{ label: string; url: string }>;
  evidence_note?: string;
  outcome: { status: "measured" | "pending" | "not_applicable"; summary?: string; measure_at?: string };
  human_action: string;
  remaining: Array<{ item: string; owner: string }>;
  learned: string;
}

const STATUS = { measured: "Measured", pending: "Pending", not_applicable: "Not applicable" } as const;

/**
 * The receipt card, in the order SPEC §11 gives. Every value carries `data-field` with
 * its metadata path, so tests (and the parity suite) can read back exactly what is shown.
 */
export function receiptCard(artifact: Artifact) {
  const m = artifact.metadata as unknown as ReceiptFieldsView;
  const nothing = m.human_action === "Nothing";
  return html`<section class="card" aria-label="Receipt">
  <p class="tldr" data-field="changed">${m.changed}</p>
  <p class="chip${nothing ? " nothing" : ""}">You need to do: <span data-field="human_action">${m.human_action}</span></p>
  <h2>Who is affected</h2>
  <div class="block" data-field="affected">${m.affected}</div>
  <div class="pair">
    <div><h2>Before</h2><div data-field="before">${m.before}</div></div>
    <div><h2>After</h2><div data-field="after">${m.after}</div></div>
  </div>
  <h2>Evidence</h2>
  ${
    m.evidence.length === 0
      ? html`<p class="warning" data-field="evidence" data-empty="true">No evidence linked</p>`
      : html`<ul data-field="evidence">${m.evidence.map(
          (e, i) => html`<li><a href="${e.url}" rel="noopener noreferrer" data-field="evidence.${i}">${e.label}</a></li>`,
        )}</ul>`
  }
  ${m.evidence_note ? html`<div class="block" data-field="evidence_note">${m.evidence_note}</div>` : ""}
  <h2>Outcome</h2>
  <p><span data-field="outcome.status" data-value="${m.outcome.status}">${STATUS[m.outcome.status]}</span>${
    m.outcome.measure_at ? html` · measure at <time data-field="outcome.measure_at">${m.outcome.measure_at}</time>` : ""
  }</p>
  ${m.outcome.summary ? html`<div class="block" data-field="outcome.summary">${m.outcome.summary}</div>` : ""}
  <h2>What remains</h2>
  ${
    m.remaining.length === 0
      ? html`<p data-field="remaining" data-empty="true">Nothing remains.</p>`
      : html`<ul data-field="remaining">${m.remaining.map(
          (r, i) => html`<li data-field="remaining.${i}"><span data-part="item">${r.item}</span> — <span data-part="owner">${r.owner}</span></li>`,
        )}</ul>`
  }
  <h2>What the system now knows</h2>
  <div class="block" data-field="learned">${m.learned}</div>
</section>`;
}
