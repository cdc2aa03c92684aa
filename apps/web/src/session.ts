import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { type Cairn, type Principal, SESSION_TTL_DAYS } from "@cairn/core";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";

/**
 * Cookies and form tokens of the web surface (ADR 0018). The session cookie holds a
 * secret the core stores only hashed. Every form carries a token: signed in, an HMAC of
 * the session secret (synchronizer token, nothing stored); on the sign-in form, a random
 * value also set as a SameSite=Strict cookie (double submit). A cross-site post has
 * neither, and `Sec-Fetch-Site` refuses it first when the browser sends one.
 */
export interface WebSession {
  principal: Principal;
  secret: string;
  formToken: string;
}

/**
 * Served over https, directly or behind a TLS-terminating proxy. Under `cairn serve`,
 * X-Forwarded-Proto reaches here only from a proxy CAIRN_TRUST_PROXY names: the server
 * removes it from anyone else's requests (apps/rest/src/proxy.ts).
 */
const isHttps = (c: Context) => new URL(c.req.url).protocol === "https:" || c.req.header("x-forwarded-proto") === "https";
/** Over https the `__Host-` prefix pins the cookie to this origin, path / and Secure. */
const sessionCookie = (c: Context) => (isHttps(c) ? "__Host-cairn_session" : "cairn_session");
const signinCookie = (c: Context) => (isHttps(c) ? "__Host-cairn_signin" : "cairn_signin");

const cookieOptions = (c: Context, maxAge: number) => ({ httpOnly: true, sameSite: "Strict", secure: isHttps(c), path: "/", maxAge }) as const;

export const formTokenOf = (secret: string) => createHmac("sha256", secret).update("cairn web form v1").digest("base64url");

function sameToken(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The signed-in person of this request, or null. */
export async function sessionOf(cairn: Cairn, c: Context): Promise<WebSession | null> {
  const secret = getCookie(c, sessionCookie(c));
  if (!secret) return null;
  const principal = await cairn.sessions.authenticate(secret);
  return principal ? { principal, secret, formToken: formTokenOf(secret) } : null;
}

export function startSession(c: Context, secret: string): void {
  setCookie(c, sessionCookie(c), secret, cookieOptions(c, SESSION_TTL_DAYS * 86_400));
  deleteCookie(c, signinCookie(c), { path: "/", secure: isHttps(c) });
}

export function endSession(c: Context): void {
  deleteCookie(c, sessionCookie(c), { path: "/", secure: isHttps(c) });
}

/** The sign-in form's token: reuses the cookie already set, or sets a new one (valid one hour). */
export function signinFormToken(c: Context): string {
  const existing = getCookie(c, signinCookie(c));
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString("base64url");
  setCookie(c, signinCookie(c), token, cookieOptions(c, 3600));
  return token;
}

/** A browser that says the request came from another site is refused whatever the form holds. */
export function isCrossSite(c: Context): boolean {
  const site = c.req.header("sec-fetch-site");
  return site !== undefined && site !== "same-origin" && site !== "none";
}

export const signinFormIsGenuine = (c: Context, field: string | undefined) => !isCrossSite(c) && sameToken(field, getCookie(c, signinCookie(c)) ?? "\0");

export const formIsGenuine = (c: Context, session: WebSession, field: string | undefined) => !isCrossSite(c) && sameToken(field, session.formToken);
