import type { NotificationChannel, NotificationSettingsView } from "@cairn/core";
import { html } from "hono/html";
import { type Chrome, layout } from "./layout.js";
import { settingsTabs } from "./settings.js";

/** The page a mailed confirmation link opens: it shows the address and a button; only the button's POST confirms (previews never do). */
export function confirmPage(code: string, target: string, already: boolean) {
  const action = `/notifications/confirm/${encodeURIComponent(code)}`;
  return layout(
    "Confirm your address",
    html`<h1>Confirm your address</h1>
${
  already
    ? html`<p><strong>${target}</strong> is already confirmed: Cairn sends notifications to it.</p>`
    : html`<p>Cairn was asked to send notifications to <strong>${target}</strong>. Press the button to confirm it is yours.</p>
<form method="post" action="${action}"><button type="submit">Confirm ${target}</button></form>
<p class="muted">If you did not ask for this, close this page: nothing is sent until the address is confirmed.</p>`
}`,
  );
}

export function confirmDonePage(target: string) {
  return layout(
    "Address confirmed",
    html`<h1>Address confirmed</h1><p>Cairn will send notifications to <strong>${target}</strong>. Change what you are told about on <a href="/settings/notifications">Notification settings</a>.</p>`,
  );
}

export function confirmUnknownPage() {
  return layout(
    "Link not valid",
    html`<h1>This link is not valid</h1><p>It is wrong, more than 7 days old, or its channel was removed. Add the address again to get a new link.</p>`,
  );
}

/** What the settings page shows: the channels, the switches, and what just happened. */
export interface NotificationSettingsData {
  channels: NotificationChannel[];
  settings: NotificationSettingsView;
  /** Whether the server can send mail (an email channel needs it). */
  mail: boolean;
  notice: string | null;
  error: string | null;
  /** A feed URL made just now: shown once. */
  feedUrl: string | null;
}

const TRIGGER_LABELS: Record<string, string> = {
  assigned: "An open action is assigned to me",
  open_action: "A new open action with nobody assigned, in an owner I act for",
  overdue: "An outcome I own or am assigned turns overdue",
  reminder: "Remind me while an action assigned to me waits unacknowledged",
  digest: "A daily digest of what waits on me",
  decided: "Someone answers the ask of a receipt in an owner I act for",
};

const KIND_LABELS: Record<string, string> = { email: "Email", slack: "Slack", ntfy: "ntfy" };

function channelState(c: NotificationChannel) {
  if (c.state === "active") return html`<span class="status ok">active</span>`;
  if (c.state === "pending") return html`<span class="status warn">pending</span> confirm the address through the link mailed to it`;
  return html`<span class="status fail">disabled</span> ${c.disabled_reason ?? ""}`;
}

/** /settings/notifications (SPEC §27): add, test and remove channels; switch triggers; make a feed key. Every form carries the form token. */
export function notificationSettingsPage(d: NotificationSettingsData, chrome: Chrome) {
  const csrf = html`<input type="hidden" name="csrf" value="${chrome.formToken}">`;
  const base = "/settings/notifications";
  const hours = Array.from({ length: 24 }, (_, h) => h);
  return layout(
    "Notification settings",
    html`${d.notice ? html`<p class="notice" role="status">${d.notice}</p>` : ""}${d.error ? html`<p class="error" role="alert">${d.error}</p>` : ""}
<h1>Notification settings</h1>
${settingsTabs("/settings/notifications")}
<p class="meta">Where Cairn reaches you when something waits on you. Each message links to the receipt's page, which needs sign-in.</p>
<h2>Channels</h2>
${
  d.channels.length === 0
    ? html`<p class="muted">No channels yet: add one below.</p>`
    : html`<ol class="rows" aria-label="Your channels">${d.channels.map(
        (c) => html`<li>
<span class="title">${KIND_LABELS[c.kind]} · <code>${c.target}</code></span>
<span>${channelState(c)}</span>
<span class="channel-forms">
${c.state === "active" ? html`<form method="post" action="${base}/channels/${encodeURIComponent(c.id)}/test">${csrf}<button class="quiet" type="submit" aria-label="Send a test to ${c.target}">Send a test</button></form>` : ""}
<form method="post" action="${base}/channels/${encodeURIComponent(c.id)}/remove">${csrf}<button class="quiet" type="submit" aria-label="Remove ${c.target}">Remove</button></form>
</span>
</li>`,
      )}</ol>`
}
<h3>Add a channel</h3>
<form class="ack" method="post" action="${base}/channels">${csrf}
<div><label for="kind">Kind</label><select id="kind" name="kind">
<option value="email"${d.mail ? "" : " disabled"}>Email${d.mail ? "" : " (this server has no mail configured)"}</option>
<option value="slack"${d.mail ? "" : " selected"}>Slack incoming webhook</option>
<option value="ntfy">ntfy topic</option>
</select></div>
<div><label for="target">Address or URL</label><input id="target" name="target" required maxlength="2000" autocomplete="off" placeholder="sam@example.com · https://hooks.slack.com/services/… · https://ntfy.sh/topic"></div>
<div><button type="submit">Add</button></div>
</form>
<h2>What to tell me</h2>
<form method="post" action="${base}/triggers">${csrf}
<fieldset class="switches"><legend>Triggers</legend>
${Object.entries(d.settings.triggers).map(
  ([name, on]) => html`<label><input type="checkbox" name="${name}" value="on"${on ? " checked" : ""}> ${TRIGGER_LABELS[name] ?? name}</label>`,
)}
</fieldset>
<div class="ack">
<div><label for="remind_after">Remind after (seconds, at least 60)</label><input id="remind_after" name="remind_after" type="number" min="60" step="1" value="${String(d.settings.remind_after)}"></div>
<div><label for="digest_hour">Digest at (UTC)</label><select id="digest_hour" name="digest_hour">${hours.map(
      (h) => html`<option value="${String(h)}"${h === d.settings.digest_hour ? " selected" : ""}>${String(h).padStart(2, "0")}:00</option>`,
    )}</select></div>
<div><button type="submit">Save</button></div>
</div>
</form>
<h2>Feed</h2>
<p>An Atom feed of what waits on you, for a feed reader. Making a new key stops the old one.</p>
${d.feedUrl ? html`<p class="notice" role="status">Your feed (shown once): <code>${d.feedUrl}</code></p>` : ""}
<form method="post" action="${base}/feed-key">${csrf}<button type="submit">Make a new feed key</button></form>`,
    chrome,
  );
}
