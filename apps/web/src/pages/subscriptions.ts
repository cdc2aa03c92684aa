import {
  attemptOutcomeOf,
  type DeliveryAttempt,
  type EventDelivery,
  eventDeliveryTextOf,
  readableInstant,
  type Subscription,
  subscriptionStateOf,
} from "@cairn/core";
import { html } from "hono/html";
import { type Chrome, layout, type Markup } from "./layout.js";

const when = (iso: string) => html`<time datetime="${iso}">${readableInstant(iso)}</time>`;
const href = (s: Subscription) => `/subscriptions/${encodeURIComponent(s.id)}`;

function state(s: Subscription) {
  const st = subscriptionStateOf(s);
  return html`<span class="status ${st.tone}">${st.badge}</span> ${st.text}`;
}

function attemptLine(a: DeliveryAttempt) {
  return html`<li><span class="status ${a.error ? "fail" : "ok"}">${a.status_code ?? "—"}</span> ${a.event_type} · ${attemptOutcomeOf(a)} · ${when(a.at)}</li>`;
}

/** A subscription and its last few attempts, for the list. */
export interface SubscriptionRow {
  subscription: Subscription;
  attempts: DeliveryAttempt[];
}

/** Where the owner's events go (SPEC §19): each subscription's state, failing since, last attempts. Read-only. */
export function subscriptionsPage(rows: SubscriptionRow[], nextCursor: string | null, chrome: Chrome): Markup {
  return layout(
    "Webhooks",
    html`<h1>Webhooks</h1>
<p class="meta">Where your events and your teams' go. Manage them with <code>cairn subscription</code> or the API.</p>
${
  rows.length === 0
    ? html`<p class="muted">No subscriptions. Add one with <code>cairn subscribe URL</code>.</p>`
    : html`<ol class="rows" aria-label="Subscriptions, newest first">${rows.map(
        ({ subscription: s, attempts }) => html`<li>
<a class="title" href="${href(s)}">${s.url}</a>
<span>${state(s)}</span>
<span class="tags"><span>${s.owner}</span><span>${s.events.length === 0 ? "" : s.events.join(", ")}</span><span>by ${s.created_by}</span></span>
${
  attempts.length === 0
    ? html`<span class="meta">No attempts yet.</span>`
    : html`<ul class="attempts" aria-label="Last attempts">${attempts.map(attemptLine)}</ul>`
}
</li>`,
      )}</ol>`
}
<nav class="pager" aria-label="Pages">${nextCursor ? html`<a href="/subscriptions?cursor=${encodeURIComponent(nextCursor)}" rel="next">More</a>` : ""}</nav>`,
    { ...chrome, current: "subscriptions" },
  );
}

/** One subscription: its facts, each event's delivery state (the event log) and the latest attempts. Read-only. */
export function subscriptionPage(s: Subscription, events: EventDelivery[], moreEvents: boolean, attempts: DeliveryAttempt[], chrome: Chrome): Markup {
  return layout(
    `Webhook ${s.id}`,
    html`<p class="assertion">Webhook subscription · ${s.owner}</p>
<h1>${s.url}</h1>
<p>${state(s)}</p>
<dl class="facts">
<dt>Events</dt><dd>${s.events.join(", ")}</dd>
<dt>Created</dt><dd>${when(s.created_at)} by ${s.created_by}</dd>
<dt>Failing since</dt><dd>${s.failing_since ? when(s.failing_since) : "—"}</dd>
<dt>Id</dt><dd><code>${s.id}</code></dd>
</dl>
<h2>Event log</h2>
${
  events.length === 0
    ? html`<p class="muted">No event has been queued for this subscription yet. Send one with <code>cairn subscription test ${s.id}</code>.</p>`
    : html`<ol class="rows" aria-label="Events, newest first">${events.map(
        (e) => html`<li>
<span><span class="status ${e.state === "delivered" ? "ok" : e.state === "failed" ? "fail" : "warn"}">${e.state}</span> <strong>${e.event_type}</strong></span>
<span class="meta">${eventDeliveryTextOf(e)}</span>
<span class="tags"><code>${e.event_id}</code></span>
</li>`,
      )}</ol>${moreEvents ? html`<p class="meta">Older events: <code>cairn deliveries ${s.id} --view events</code>.</p>` : ""}`
}
<h2>Latest attempts</h2>
${attempts.length === 0 ? html`<p class="muted">No attempts yet.</p>` : html`<ul class="attempts" aria-label="Latest attempts, newest first">${attempts.map(attemptLine)}</ul>`}
<p class="meta">Resend: <code>cairn subscription redeliver ${s.id} EVENT_ID</code> · <code>cairn subscription recover ${s.id} --since TIME</code></p>`,
    { ...chrome, current: "subscriptions" },
  );
}
