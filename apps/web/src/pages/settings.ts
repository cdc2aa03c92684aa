import type { ConnectedApp, TokenSummary } from "@cairn/core";
import { html } from "hono/html";
import { type Chrome, layout, type Markup } from "./layout.js";

const when = (iso: string | null) =>
  iso === null ? html`<span class="muted">never</span>` : html`<time datetime="${iso}">${iso.slice(0, 16).replace("T", " ")} UTC</time>`;

const revokeForm = (id: string, formToken: string, label: string, what: string) =>
  html`<form class="revoke" method="post" action="/settings/tokens/${encodeURIComponent(id)}/revoke"><input type="hidden" name="csrf" value="${formToken}"><button class="quiet" type="submit" aria-label="${label} ${what}">${label}</button></form>`;

/** Settings' sections; other pages of settings add themselves here. */
const SECTIONS = [
  { href: "/settings", label: "Tokens and apps" },
  { href: "/settings/notifications", label: "Notifications" },
  { href: "/settings/teams", label: "Teams" },
] as const;

/** The settings pages' tabs, the current one marked. */
export const settingsTabs = (current: (typeof SECTIONS)[number]["href"]) =>
  html`<nav class="tabs" aria-label="Settings">${SECTIONS.map((s) =>
    s.href === current ? html`<a href="${s.href}" aria-current="page">${s.label}</a>` : html`<a href="${s.href}">${s.label}</a>`,
  )}</nav>`;

/** The settings page (SPEC §26): connected apps and tokens of the signed-in person, each with Revoke. */
export function settingsPage(apps: ConnectedApp[], tokens: TokenSummary[], notice: string | null, chrome: Chrome): Markup {
  const appIds = new Set(apps.map((a) => a.token_id));
  const minted = tokens.filter((t) => !appIds.has(t.id) && t.revoked_at === null);
  return layout(
    "Settings",
    html`<h1>Settings</h1>
${settingsTabs("/settings")}
${notice ? html`<p class="notice" role="status">${notice}</p>` : ""}
<h2>Connected apps</h2>
<p class="meta">Apps you allowed through OAuth (chat hosts such as Claude or ChatGPT). Each holds an agent token: it writes receipts, artifacts and runs and reads what you can read. Disconnect one and its next request is refused.</p>
${
  apps.length === 0
    ? html`<p class="muted">No connected apps.</p>`
    : html`<ol class="rows" aria-label="Connected apps, newest first">${apps.map(
        (a) => html`<li>
<span class="title">${a.name}</span>
<span class="tags"><span>sends you back to ${a.hosts.join(", ") || "—"}</span><span>connected ${when(a.created_at)}</span><span>last used ${when(a.last_used_at)}</span></span>
${revokeForm(a.token_id, chrome.formToken, "Disconnect", a.name)}
</li>`,
      )}</ol>`
}
<h2>Tokens</h2>
<p class="meta">Bearer tokens for the CLI, scripts and <code>cairn mcp</code>. Mint one with <code>cairn token create</code>.</p>
${
  minted.length === 0
    ? html`<p class="muted">No live tokens.</p>`
    : html`<ol class="rows" aria-label="Tokens, newest first">${minted.map(
        (t) => html`<li>
<span class="title">${t.name}${t.current ? html` <span class="pill calm">this session</span>` : ""}</span>
<span class="tags"><span>${t.kind}</span><span>created ${when(t.created_at)}</span><span><code>${t.id}</code></span></span>
${revokeForm(t.id, chrome.formToken, "Revoke", t.name)}
</li>`,
      )}</ol>`
}`,
    { ...chrome, current: "settings" },
  );
}
