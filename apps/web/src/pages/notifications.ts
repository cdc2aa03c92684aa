import { html } from "hono/html";
import { type Chrome, layout } from "./layout.js";

/** The page a mailed confirmation link opens: it shows the address and a button; only the button's POST confirms (previews never do). */
export function confirmPage(code: string, target: string, already: boolean) {
  const action = `/notifications/confirm/${encodeURIComponent(code)}`;
  return layout(
    "Confirm your address",
    html`<h1>Confirm your address</h1>
${already
  ? html`<p><strong>${target}</strong> is already confirmed: Cairn sends notifications to it.</p>`
  : html`<p>Cairn was asked to send notifications to <strong>${target}</strong>. Press the button to confirm it is yours.</p>
<form method="post" action="${action}"><button type="submit">Confirm ${target}</button></form>
<p class="muted">If you did not ask for this, close this page: nothing is sent until the address is confirmed.</p>`}`,
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

export type { Chrome };
