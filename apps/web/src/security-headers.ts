import type { MiddlewareHandler } from "hono";

export interface SecurityHeaderOptions {
  /** Sources of style: our own stylesheet by default; a page with one inline style names its hash. */
  styleSrc?: string;
  /** A page's own complete policy (e.g. /docs, whose one stylesheet is allowed by hash); the other headers still apply. */
  csp?: string;
}

/**
 * No inline script, no framing, no form posts elsewhere, nothing loaded from another
 * origin. The one script is our own file (the share link's Copy button, ADR 0033).
 */
export function contentSecurityPolicy({ styleSrc = "'self'", formAction = "'self'" }: SecurityHeaderOptions & { formAction?: string } = {}): string {
  return `default-src 'none'; script-src 'self'; style-src ${styleSrc}; img-src 'self'; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`;
}

/**
 * The headers every HTML page sends (SPEC §11), the web's and the REST app's `/docs`.
 * `no-referrer` keeps share tokens and ids out of other sites' logs; it is also why the
 * forms are protected by a form token and not by an Origin check (ADR 0018).
 */
export function securityHeaders(options: SecurityHeaderOptions = {}): MiddlewareHandler {
  const csp = options.csp ?? contentSecurityPolicy(options);
  return async (c, next) => {
    // Set before the handler, so its response is made with them: a header set on a response
    // already made copies the whole response, once per header. A page that must allow more
    // (the OAuth consent form, which redirects to the app) sets its own policy over this one.
    c.header("Content-Security-Policy", csp);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
    c.header("X-Frame-Options", "DENY");
    c.header("Cross-Origin-Opener-Policy", "same-origin");
    await next();
  };
}
