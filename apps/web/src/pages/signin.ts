import { SIGNIN_LINK_TTL_MINUTES } from "@cairn/core";
import { html } from "hono/html";
import { layout, type Markup } from "./layout.js";

/** The sign-in form: a token, a form token, and where to go next. */
export function signinPage(formToken: string, next: string, error: string | null): Markup {
  return layout(
    "Sign in",
    html`<section class="signin" aria-labelledby="signin-heading">
<h1 id="signin-heading">Sign in</h1>
<p>Paste a human Cairn token (<code>cairn_…</code>). <code>cairn serve</code> wrote the administrator's to <code>$CAIRN_HOME/credentials</code>; <code>cairn token create</code> mints another.</p>
${error ? html`<p class="error" role="alert">${error}</p>` : ""}
<form method="post" action="/signin">
<label for="token">Token</label>
<input id="token" name="token" type="password" autocomplete="off" required spellcheck="false">
<input type="hidden" name="csrf" value="${formToken}">
<input type="hidden" name="next" value="${next}">
<button type="submit">Sign in</button>
</form>
</section>`,
  );
}

/** A sign-in link that was used, has expired, or never existed: one plain page for all three. */
export function signinLinkSpentPage(): Markup {
  return layout(
    "Sign-in link used or expired",
    html`<section class="signin" aria-labelledby="link-heading">
<h1 id="link-heading">This sign-in link has been used or has expired</h1>
<p>Each link from <code>cairn open</code> signs in once, within ${SIGNIN_LINK_TTL_MINUTES} minutes. Run <code>cairn open</code> again for a new one.</p>
<p><a href="/signin">Sign in with a token instead</a></p>
</section>`,
  );
}

/** A sign-in link that another site sent the browser to: not followed, so it cannot sign anyone in as someone else. */
export function signinLinkElsewherePage(): Markup {
  return layout(
    "Open the link yourself",
    html`<section class="signin" aria-labelledby="link-heading">
<h1 id="link-heading">Open this sign-in link yourself</h1>
<p>Another site sent your browser here, so the link was not used. Paste the link from <code>cairn open</code> into the address bar, or run <code>cairn open</code> again.</p>
<p><a href="/signin">Sign in with a token instead</a></p>
</section>`,
  );
}

/**
 * What a sign-in link shows on GET (SPEC §24): whose it is and one button. Only the button's
 * POST (with the form token) uses the link, so a preview that fetches it spends nothing.
 * The form posts back to the page's own address (the link), so the code is never copied
 * into the page.
 */
export function signinLinkPage(user: string, formToken: string): Markup {
  return layout(
    "Sign in",
    html`<section class="signin" aria-labelledby="link-heading">
<h1 id="link-heading">Sign in to Cairn</h1>
<p>This link from <code>cairn open</code> signs you in once, within ${SIGNIN_LINK_TTL_MINUTES} minutes of when it was made.</p>
<form method="post">
<input type="hidden" name="csrf" value="${formToken}">
<button type="submit">Sign in as ${user}</button>
</form>
</section>`,
  );
}
