import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

export type Markup = HtmlEscapedString | Promise<HtmlEscapedString>;

/** Who is signed in, for the page header; null on share pages and the sign-in form. */
export interface Chrome {
  user: string;
  formToken: string;
  /** The current section, marked in the navigation. */
  current?: "bin" | "inbox" | "runs" | "doctor" | "subscriptions" | "settings";
}

const NAV = [
  { key: "bin", href: "/", label: "Bin" },
  { key: "inbox", href: "/inbox", label: "Inbox" },
  { key: "runs", href: "/runs", label: "Runs" },
  { key: "doctor", href: "/doctor", label: "Doctor" },
  { key: "subscriptions", href: "/subscriptions", label: "Webhooks" },
  { key: "settings", href: "/settings", label: "Settings" },
] as const;

function siteHeader(chrome: Chrome | null) {
  if (!chrome) return html`<header class="site"><div class="wrap"><a class="brand" href="/">Cairn</a></div></header>`;
  return html`<header class="site"><div class="wrap">
<a class="brand" href="/">Cairn</a>
<nav aria-label="Main"><ul>${NAV.map(
    (n) => html`<li><a href="${n.href}"${chrome.current === n.key ? html` aria-current="page"` : ""}>${n.label}</a></li>`,
  )}</ul></nav>
<form class="who" method="post" action="/signout"><span>Signed in as <strong>${chrome.user}</strong></span><input type="hidden" name="csrf" value="${chrome.formToken}"><button class="quiet" type="submit">Sign out</button></form>
</div></header>`;
}

/** Every page: landmarks, a skip link, no inline script, one same-origin stylesheet, nothing indexed. */
export function layout(title: string, content: Markup, chrome: Chrome | null = null): Markup {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${title} · Cairn</title>
<link rel="icon" href="/assets/cairn.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/cairn.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${siteHeader(chrome)}
<main id="main" class="wrap">
${content}
</main>
<footer class="site"><div class="wrap">Cairn keeps receipts of work: every field is the writer's claim. <a href="/docs">API</a></div></footer>
</body>
</html>`;
}

export function messagePage(title: string, message: string, chrome: Chrome | null = null, requestId?: string) {
  return layout(
    title,
    html`<h1>${title}</h1><p>${message}</p>${
      // The id a person can quote: the same as the X-Request-Id answered and the server's log line (SPEC §30).
      requestId ? html`<p class="meta" data-part="request-id">Request id: <code>${requestId}</code></p>` : ""
    }${chrome ? html`<p><a href="/">Back to the bin</a></p>` : ""}`,
    chrome,
  );
}
