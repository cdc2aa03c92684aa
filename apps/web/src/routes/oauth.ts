import { type Cairn, OAUTH_PATHS, type OAuthCaller, OAuthError } from "@cairn/core";
import type { Context, Hono } from "hono";
import type { WebEnv } from "../adapter.js";
import { CARRIED_PARAMS, consentPage, oauthRefusedPage, reloadHerePage } from "../pages/consent.js";
import { contentSecurityPolicy } from "../security-headers.js";
import { formIsGenuine, isCrossSite, sessionOf } from "../session.js";
import { formLimit, refusedForm } from "./auth.js";

/** The request's parameters from a posted form: only those an authorization request has, so nothing else rides along. */
function carried(form: Record<string, string | File | (string | File)[]>): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of CARRIED_PARAMS) {
    const value = form[name];
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) if (typeof v === "string") params.append(name, v);
  }
  return params;
}

/** The network peer, as node-server hands it over (document fetches are limited per address); none in process. */
function callerOf(c: Context<WebEnv>): OAuthCaller {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming ? { address: incoming.socket?.remoteAddress ?? "unknown" } : {};
}

/** A refusal on Cairn's own page: 400, or 429 with Retry-After when the caller is asking too often. */
function refused(c: Context<WebEnv>, error: OAuthError, chrome: Parameters<typeof oauthRefusedPage>[1]) {
  if (error.status === 429 && error.retryAfterSeconds !== undefined) {
    c.header("Retry-After", String(error.retryAfterSeconds));
    return c.html(oauthRefusedPage(error.description, chrome), 429);
  }
  return c.html(oauthRefusedPage(error.description, chrome), 400);
}

/** The redirect URI's origin as a CSP source; CSP has no syntax for an IPv6 literal, so `http://[::1]:…` is allowed by scheme. */
function formTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.hostname.startsWith("[") ? url.protocol : url.origin;
}

/**
 * The authorization endpoint (SPEC §26, ADR 0054). GET checks the request, signs the person
 * in through the web's sign-in when needed (coming back here), and shows the consent page;
 * POST is the person's answer, checked again in full, under the form token.
 */
export function mountOAuthAuthorize(app: Hono<WebEnv>, cairn: Cairn): void {
  app.get(OAUTH_PATHS.authorize, async (c) => {
    const url = new URL(c.req.url);
    const check = await cairn.oauth.checkAuthorize(url.searchParams, callerOf(c));
    const session = await sessionOf(cairn, c);
    const chrome = session ? { user: session.principal.user.name, formToken: session.formToken } : null;
    if (!check.ok) {
      if (check.redirect) return c.redirect(check.redirect, 302);
      return refused(c, check.error, chrome);
    }
    const here = `${url.pathname}${url.search}`;
    if (!session || !chrome) {
      // Sent here by the app's site, the browser kept the SameSite=Strict session cookie back: ask again from our own page once.
      if (isCrossSite(c)) return c.html(reloadHerePage(here));
      return c.redirect(`/signin?next=${encodeURIComponent(here)}`, 303);
    }
    // The answer redirects to the app: the form may post here and be sent on to the app's origin, nowhere else.
    c.header("Content-Security-Policy", contentSecurityPolicy({ formAction: `'self' ${formTarget(check.request.redirect_uri)}` }));
    return c.html(consentPage(check.request, url.searchParams, chrome));
  });

  app.post(OAUTH_PATHS.authorize, formLimit, async (c: Context<WebEnv>) => {
    if (isCrossSite(c)) return c.html(refusedForm(), 403);
    const session = await sessionOf(cairn, c);
    if (!session) return c.redirect("/signin", 303);
    const form = await c.req.parseBody({ all: true });
    const csrf = form.csrf;
    if (!formIsGenuine(c, session, typeof csrf === "string" ? csrf : undefined)) return c.html(refusedForm(), 403);
    const chrome = { user: session.principal.user.name, formToken: session.formToken };
    const check = await cairn.oauth.checkAuthorize(carried(form), callerOf(c));
    if (!check.ok) {
      if (check.redirect) return c.redirect(check.redirect, 303);
      return refused(c, check.error, chrome);
    }
    const decision = form.decision;
    if (decision !== "allow" && decision !== "deny") return c.html(oauthRefusedPage("Choose Allow or Deny.", chrome), 400);
    try {
      return c.redirect(await cairn.oauth.decide(check.request, session.principal, decision === "allow"), 303);
    } catch (err) {
      if (err instanceof OAuthError) return c.html(oauthRefusedPage(err.description, chrome), 403);
      throw err;
    }
  });
}
