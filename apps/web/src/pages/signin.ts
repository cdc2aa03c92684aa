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
