import type { AskView } from "@cairn/core";
import { html } from "hono/html";
import type { Markup } from "./layout.js";

/** Where a person who may answer posts their choice: the artifact and the session's form token. */
export interface AskForm {
  id: string;
  formToken: string;
}

/**
 * A receipt's ask on the card (SPEC §32), in core's words: while open its options and
 * deadline — as one button per option for a person who may answer (a POST form with the
 * form token) — and once answered who chose what, when, with the comment.
 */
export function askBlock(view: AskView, form: AskForm | null): Markup {
  const deadline = view.answer_by
    ? html`<p class="meta" data-part="answer_by">${view.answer_by.label} <time class="when">${view.answer_by.text}</time></p>`
    : "";
  if (view.decision !== null) {
    return html`<div class="ask" data-part="ask" data-state="${view.state}">
<p class="decision" data-part="decision"><strong>${view.decision}</strong></p>
${view.comment ? html`<p class="text" data-part="decision-comment"><span class="label">${view.comment.label}</span> ${view.comment.text}</p>` : ""}
</div>`;
  }
  const options = html`<ul class="options" aria-label="${view.options.label}">${view.options.items.map((o) => html`<li data-option="${o.id}">${o.label}</li>`)}</ul>`;
  if (!form) return html`<div class="ask" data-part="ask" data-state="open"><span class="label">${view.options.label}</span>${options}${deadline}</div>`;
  const commentId = `comment-${form.id}`;
  const comment =
    view.comment_rule === "none"
      ? ""
      : html`<div><label for="${commentId}">Comment${view.comment_rule === "required" ? " (required)" : " (optional)"}</label><textarea id="${commentId}" name="comment" maxlength="1000"${view.comment_rule === "required" ? " required" : ""}></textarea></div>`;
  return html`<form class="ask" data-part="ask" data-state="open" method="post" action="/a/${encodeURIComponent(form.id)}/decide">
<input type="hidden" name="csrf" value="${form.formToken}">
<span class="label">${view.options.label}</span>
${comment}
<div class="buttons">${view.options.items.map((o) => html`<button type="submit" name="option" value="${o.id}">${o.label}</button>`)}</div>
${deadline}
</form>`;
}
