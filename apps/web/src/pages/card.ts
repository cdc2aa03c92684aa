import type { ReceiptCardView, TextPart } from "@cairn/core";
import { html, raw } from "hono/html";
import { renderInline, renderMarkdown } from "../markdown.js";
import { type AskForm, askBlock } from "./ask.js";
import type { Markup } from "./layout.js";

/** A field's text: inline markdown (escaped by markdown-it, then sanitised), line breaks kept. */
const text = (p: TextPart, tag: "p" | "div" = "div") => html`<${raw(tag)} class="text" data-field="${p.field}">${raw(renderInline(p.text))}</${raw(tag)}>`;

const labelled = (p: TextPart) => html`<div><span class="label">${p.label}</span>${text(p)}</div>`;

/** A title that only repeats the TL;DR (the default title) is the TL;DR: the heading carries both. */
export function titleOf(title: string, card: ReceiptCardView | null): Markup {
  if (card && card.tldr.text === title) {
    return html`<h1 data-field="title"><span data-field="${card.tldr.field}">${title}</span></h1>`;
  }
  return html`<h1 data-field="title">${title}</h1>`;
}

/**
 * The receipt card in SPEC §11's order: TL;DR, the action chip, who is affected, before
 * and after, evidence, outcome, what remains, what the system now knows. Every label and
 * value comes from core's card view; `data-field` carries each value's metadata path.
 */
/** Titles of linked receipts the viewer may read, by id (a link whose title is unknown shows its id). */
export type LinkTitles = ReadonlyMap<string, string>;

const receiptLink = (id: string, titles: LinkTitles, field: string) =>
  html`<a data-field="${field}" href="/a/${encodeURIComponent(id)}">${titles.get(id) ?? id}</a>`;

/** The outcome's mark: "Overdue" beside the stored status; a measured outcome is shown by `measuredOf` instead. */
function outcomeMarkOf(outcome: ReceiptCardView["outcome"]): Markup | string {
  if (outcome.state === "overdue") return html` · <span class="mark overdue" data-part="overdue">${outcome.mark}</span>`;
  return "";
}

/** "Measured in <follow-up>", linked when the viewer may read it, or "Measured in a later receipt" (SPEC §24). */
function measuredOf(measured: NonNullable<ReceiptCardView["outcome"]["measured"]>, titles: LinkTitles): Markup {
  const links = measured.followed_by.map((id, i) => html`${i > 0 ? ", " : ""}${receiptLink(id, titles, "followed_by")}`);
  return html`<strong class="measured" data-part="measured">${measured.label}</strong> ${measured.unnamed ?? links}`;
}

export function receiptCard(
  card: ReceiptCardView,
  underChip: Markup | string = "",
  tldrIsTitle = false,
  titles: LinkTitles = new Map(),
  askForm: AskForm | null = null,
): Markup {
  const { action, evidence, outcome, remaining } = card;
  return html`<section class="card" aria-label="Receipt">
${tldrIsTitle ? "" : html`<p class="tldr text" data-field="${card.tldr.field}">${raw(renderInline(card.tldr.text))}</p>`}
<p class="chip${action.waiting ? "" : " calm"}" data-part="chip">${action.label}: <span data-field="${action.field}">${raw(renderInline(action.text))}</span>${
    // Who and when are listed right under the chip; the chip itself says, at a glance, that it was handled.
    action.acknowledged ? html`<span class="chip-state" data-part="acknowledged">✓ Acknowledged</span>` : ""
  }</p>
${card.assignee ? html`<p class="assignee" data-field="assignee">${card.assignee.label} <strong>${card.assignee.user}</strong></p>` : ""}
${
  card.acknowledgements.length > 0
    ? html`<ul class="acks" aria-label="Acknowledgements">${card.acknowledgements.map(
        (a) => html`<li><time datetime="${a.at}">${a.text}</time>${a.note ? html`: <span class="text">${a.note}</span>` : ""}</li>`,
      )}</ul>`
    : ""
}
${card.ask ? askBlock(card.ask, card.ask.state === "open" ? askForm : null) : ""}${underChip}
${labelled(card.affected)}
<div class="pair">${labelled(card.before)}${labelled(card.after)}</div>
<div><span class="label">${evidence.label}</span>${
    evidence.empty !== null
      ? html`<p class="warning" data-field="${evidence.field}" data-empty="true">${evidence.empty}</p>`
      : html`<ul data-field="${evidence.field}">${evidence.links.map(
          (e) =>
            html`<li><a href="${e.url}" rel="noopener noreferrer" data-field="${e.field}">${e.label}</a>${e.open ? html` <span class="meta">· <a href="${e.open.href}">${e.open.label}</a></span>` : ""}</li>`,
        )}</ul>`
  }${evidence.note ? html`<p class="text meta" data-field="${evidence.note.field}">${raw(renderInline(evidence.note.text))}</p>` : ""}</div>
<div><span class="label">${outcome.label}</span><p>${
    outcome.measured
      ? measuredOf(outcome.measured, titles)
      : html`<strong data-field="${outcome.status.field}" data-value="${outcome.status.value}">${outcome.status.text}</strong>${
          outcome.measure_at
            ? html` · ${outcome.measure_at.label.toLowerCase()} <time class="when" data-field="${outcome.measure_at.field}">${outcome.measure_at.text}</time>`
            : ""
        }${outcomeMarkOf(outcome)}`
  }</p>${outcome.summary ? text(outcome.summary) : ""}</div>
<div><span class="label">${remaining.label}</span>${
    remaining.empty !== null
      ? html`<p data-field="${remaining.field}" data-empty="true">${remaining.empty}</p>`
      : html`<ul data-field="${remaining.field}">${remaining.items.map(
          (r) => html`<li data-field="${r.field}"><span data-part="item">${r.item}</span> — <span data-part="owner">${r.owner}</span></li>`,
        )}</ul>`
  }</div>
${labelled(card.learned)}
</section>
${card.details ? html`<section class="body" aria-labelledby="details-heading"><h2 id="details-heading">${card.details.label}</h2><div data-field="${card.details.field}">${raw(renderMarkdown(card.details.text))}</div></section>` : ""}`;
}
