import { type Cairn, CairnError } from "@cairn/core";
import type { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { failureFor, type WebEnv } from "../adapter.js";
import { messagePage } from "../pages/layout.js";
import { signinLinkElsewherePage, signinLinkPage, signinLinkSpentPage, signinPage } from "../pages/signin.js";
import { endSession, formIsGenuine, isCrossSite, sessionOf, signinFormIsGenuine, signinFormToken, startSession } from "../session.js";

/** Forms are a few hundred bytes; anything larger is not ours. */
export const formLimit = bodyLimit({
  maxSize: 16 * 1024,
  onError: (c) => c.html(messagePage("Too large", "The form sent more than the server accepts."), 413),
});

const SELF = "http://cairn.invalid";

/** A control character (TAB, CR, LF and the rest) or a backslash. */
const unsafeChar = (ch: string) => {
  const code = ch.charCodeAt(0);
  return code < 0x20 || code === 0x7f || ch === "\\";
};

/**
 * Only a path on this site, else `/`. A browser drops TAB, CR and LF from a URL and reads
 * a backslash as a slash, so `/<TAB>/evil.example` and `/<backslash>evil.example` name
 * another host: none of them may appear anywhere, nor any other control character (a CR
 * or LF would also make the Location header invalid after the action ran). What is left
 * must resolve to this origin.
 */
export function safeNext(raw: string | undefined): string {
  if (!raw || raw.length > 1000 || !raw.startsWith("/") || raw.startsWith("//") || [...raw].some(unsafeChar)) return "/";
  try {
    return new URL(raw, SELF).origin === SELF ? raw : "/";
  } catch {
    return "/";
  }
}

export const refusedForm = () => messagePage("Form refused", "This form was not sent from Cairn's own page (or it is too old). Reload the page and try again.");

/** GET /signin, POST /signin, POST /signout (SPEC §13). */
export function mountAuth(app: Hono<WebEnv>, cairn: Cairn): void {
  app.get("/signin", async (c) => {
    const next = safeNext(c.req.query("next"));
    if (await sessionOf(cairn, c)) return c.redirect(next, 303);
    return c.html(signinPage(signinFormToken(c), next, null));
  });

  app.post("/signin", formLimit, async (c) => {
    const form = await c.req.parseBody();
    const field = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : undefined);
    if (!signinFormIsGenuine(c, field("csrf"))) return c.html(refusedForm(), 403);
    const next = safeNext(field("next"));
    try {
      const opened = await cairn.sessions.open(field("token") ?? "");
      startSession(c, opened.secret);
      return c.redirect(next, 303);
    } catch (err) {
      if (!(err instanceof CairnError)) throw err;
      const { failure } = failureFor(cairn, c, err);
      return c.html(signinPage(signinFormToken(c), next, err.message), failure.status);
    }
  });

  // The one-time link `cairn open` prints (SPEC §22, §24, ADR 0036). A GET only shows whose
  // it is: chat apps and mail scanners fetch links before people do, and a fetch must not
  // spend it. The page's one button posts it back, with the sign-in form token, and that
  // POST is the sign-in.
  app.get("/signin/link/:code", async (c) => {
    // A link checker's HEAD learns nothing and spends nothing.
    if (c.req.method === "HEAD") return c.body(null, 200);
    const peeked = await cairn.sessions.peek(c.req.param("code"));
    if (!peeked) return c.html(signinLinkSpentPage(), 410);
    // The code is in the path already; the page adds nothing a preview could use, and is never cached.
    return c.html(signinLinkPage(peeked.user, signinFormToken(c)));
  });

  app.post("/signin/link/:code", formLimit, async (c) => {
    // Another site sending a browser here would sign it in as someone else: the code is kept for its owner.
    if (isCrossSite(c)) return c.html(signinLinkElsewherePage(), 403);
    const form = await c.req.parseBody();
    if (!signinFormIsGenuine(c, typeof form.csrf === "string" ? form.csrf : undefined)) return c.html(refusedForm(), 403);
    const followed = await cairn.sessions.follow(c.req.param("code"));
    if (!followed) return c.html(signinLinkSpentPage(), 410);
    startSession(c, followed.session.secret);
    return c.redirect(safeNext(followed.next), 303);
  });

  app.post("/signout", formLimit, async (c) => {
    // Refused before anything else: a forged post must not even clear a cookie.
    if (isCrossSite(c)) return c.html(refusedForm(), 403);
    const session = await sessionOf(cairn, c);
    if (!session) return c.redirect("/signin", 303);
    const form = await c.req.parseBody();
    if (!formIsGenuine(c, session, typeof form.csrf === "string" ? form.csrf : undefined)) return c.html(refusedForm(), 403);
    await cairn.sessions.close(session.secret);
    endSession(c);
    return c.redirect("/signin", 303);
  });
}
