import { type AuthorizationRequest, CONSENT_WORDS, OAUTH_PATHS, redirectHostOf } from "@cairn/core";
import { html } from "hono/html";
import { type Chrome, layout, type Markup } from "./layout.js";

/** The authorization request's parameters, carried through the consent form unchanged and checked again on Allow or Deny. */
export const CARRIED_PARAMS = ["response_type", "client_id", "redirect_uri", "code_challenge", "code_challenge_method", "state", "resource", "scope"] as const;

/** Whether the app's redirect goes to this computer (a native app's own listener) rather than a website. */
const isLoopback = (uri: string) => /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(:|\/)/.test(uri);

/**
 * The consent page (SPEC §26): which app, where it sends the person back, what its token
 * may and may not do, and Allow or Deny — one form, with the form token.
 */
export function consentPage(request: AuthorizationRequest, params: URLSearchParams, chrome: Chrome): Markup {
  const host = redirectHostOf(request.redirect_uri);
  return layout(
    `Connect ${request.client.name}`,
    html`<section class="signin consent" aria-labelledby="consent-heading">
<p class="assertion">An app asks to use Cairn as you</p>
<h1 id="consent-heading">Connect ${request.client.name} to Cairn?</h1>
<dl class="facts">
<dt>App</dt><dd>${request.client.name}${request.client.kind === "metadata" ? html`<br><span class="meta">described at <code>${request.client.id}</code></span>` : html`<br><span class="meta">registered itself with this server</span>`}</dd>
<dt>Sends you back to</dt><dd><strong>${host}</strong>${isLoopback(request.redirect_uri) ? html`<br><span class="meta">an app on this computer</span>` : ""}</dd>
<dt>Acts for</dt><dd>${chrome.user}</dd>
</dl>
<h2>It will be able to</h2>
<ul class="plain">${CONSENT_WORDS.may.map((w) => html`<li>✓ ${w}</li>`)}</ul>
<h2>It will not be able to</h2>
<ul class="plain">${CONSENT_WORDS.mayNot.map((w) => html`<li>✗ ${w}</li>`)}</ul>
<p class="meta">${CONSENT_WORDS.lifetime} Only allow apps you opened yourself.</p>
<form method="post" action="${OAUTH_PATHS.authorize}">
${CARRIED_PARAMS.map((name) => {
  const value = params.get(name);
  return value === null ? "" : html`<input type="hidden" name="${name}" value="${value}">`;
})}
<input type="hidden" name="csrf" value="${chrome.formToken}">
<div class="actions-row"><button type="submit" name="decision" value="allow">Allow</button> <button class="quiet" type="submit" name="decision" value="deny">Deny</button></div>
</form>
</section>`,
    chrome,
  );
}

/** An authorization request Cairn will not send back to the app (unknown client, unregistered redirect URI). */
export function oauthRefusedPage(description: string, chrome: Chrome | null): Markup {
  return layout(
    "Cannot connect this app",
    html`<section class="signin" aria-labelledby="refused-heading">
<h1 id="refused-heading">This app cannot connect</h1>
<p class="error" role="alert">${description}</p>
<p>Nothing was shared. Go back to the app and try connecting again; if it keeps failing, tell whoever runs this Cairn server.</p>
</section>`,
    chrome,
  );
}

/**
 * A browser another site sent here does not send the SameSite=Strict session cookie; this
 * page loads the same request again from Cairn's own origin, which does (ADR 0054).
 */
export function reloadHerePage(url: string): Markup {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${url}"><meta name="referrer" content="no-referrer"><title>Continue · Cairn</title><link rel="stylesheet" href="/assets/cairn.css"></head>
<body><main id="main" class="wrap"><p><a href="${url}">Continue to Cairn</a></p></main></body></html>`;
}
