import { type InboxItem, mayAcknowledge, receiptCardOf, STATE_WORDS } from "@cairn/core";
import { html, raw } from "hono/html";
import { renderInline } from "../markdown.js";
import { type Chrome, layout, type Markup } from "./layout.js";

/** The inbox's tabs: each is a state, and "Mine" is the open ones assigned to the viewer (`assignee=me`). */
export const INBOX_STATES = [
  { value: "open", label: "Open", state: "open", assignee: undefined },
  { value: "mine", label: "Mine", state: "open", assignee: "me" },
  { value: "acknowledged", label: "Acknowledged", state: "acknowledged", assignee: undefined },
  { value: "all", label: "All", state: "all", assignee: undefined },
] as const;

/** The Acknowledge form: a person saying they saw it, with an optional note. Posts back to `next`. */
export function acknowledgeForm(id: string, formToken: string, next: string): Markup {
  const noteId = `note-${id}`;
  return html`<form class="ack" method="post" action="/a/${encodeURIComponent(id)}/acknowledge">
<input type="hidden" name="csrf" value="${formToken}"><input type="hidden" name="next" value="${next}">
<div><label for="${noteId}">Note (optional)</label><input id="${noteId}" name="note" maxlength="1000" placeholder="e.g. approved in #finance"></div>
<div><button type="submit">Acknowledge</button></div>
</form>`;
}

/** What waits on people (SPEC §15): open asks first (SPEC §32, marked with their options), then newest first, each with its chip, age, acknowledgements and the Acknowledge button. */
export function inboxPage(items: InboxItem[], state: string, nextCursor: string | null, chrome: Chrome, notice: string | null = null): Markup {
  return layout(
    "Inbox",
    html`${notice ? html`<p class="notice" role="status" data-part="notice">${notice}</p>` : ""}<h1>Inbox</h1>
<nav aria-label="Inbox states"><ul class="tabs">${INBOX_STATES.map(
      (s) => html`<li><a href="/inbox?state=${s.value}"${s.value === state ? html` aria-current="page"` : ""}>${s.label}</a></li>`,
    )}</ul></nav>
${
  items.length === 0
    ? html`<p class="muted">${
        state === "open"
          ? "Nothing waits on you. Receipts that ask a person for something appear here."
          : state === "mine"
            ? "Nothing open is assigned to you. Receipts name who must act with assignee."
            : "Nothing here."
      }</p>`
    : html`<ol class="rows" aria-label="Receipts that ask a person, open asks first, then newest first">${items.map((item) => {
        const card = receiptCardOf(item.receipt);
        const acknowledged = item.state === "acknowledged";
        return html`<li${acknowledged ? html` data-state="acknowledged"` : ""}>
<a class="title" href="/a/${encodeURIComponent(item.id)}">${item.receipt.title}</a>
${card ? html`<span><span class="pill${acknowledged ? " calm" : ""}">${card.action.label}: ${raw(renderInline(card.action.text))}</span></span>` : ""}
${item.ask ? html`<span class="ask" data-part="ask" data-state="${item.ask.state}">${item.ask.text}</span>` : ""}
<span class="tags"><span>${item.receipt.owner}</span>${item.assignee ? html`<span>${STATE_WORDS.assignee} <strong>${item.assignee}</strong></span>` : ""}${
          acknowledged
            ? card?.acknowledgements.map((a) => html`<span class="acked" data-part="acknowledged">✓ ${a.text}</span>`)
            : html`<span class="waiting">waiting ${item.age.text}</span>`
        }</span>
${mayAcknowledge(item.receipt, chrome.user) ? acknowledgeForm(item.id, chrome.formToken, `/inbox?state=${state}`) : ""}
</li>`;
      })}</ol>`
}
<nav class="pager" aria-label="Pages">${nextCursor ? html`<a href="/inbox?state=${state}&cursor=${encodeURIComponent(nextCursor)}" rel="next">Older</a>` : ""}</nav>`,
    { ...chrome, current: "inbox" },
  );
}
