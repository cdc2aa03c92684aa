import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { readArtifact } from "../artifact/read.js";
import type { ServiceContext } from "../context.js";
import { forbidden } from "../errors.js";
import { livePrincipal } from "../identity/tokens.js";
import { hashToken, newId } from "../ids.js";
import type { Store } from "../store/port.js";
import type { SigninLink, SigninLinkCreateInput } from "./schemas.js";
import { insertSession, type OpenedSession } from "./sessions.js";

/** A sign-in link opens for this long after it was made (SPEC §22). */
export const SIGNIN_LINK_TTL_MINUTES = 5;
const MINUTE_MS = 60_000;
/** The path of a link on the web surface; the code follows it. */
export const SIGNIN_LINK_PATH = "/signin/link/";
/** A code is 32 random bytes as base64url: exactly 43 characters of this alphabet. */
const CODE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * signin_link_create: a link that signs the caller in to the web once, within minutes,
 * and lands on the bin or on one artifact. Only a human token may ask: a link is a way
 * in for a person, like the sign-in form (ADR 0018). The artifact must be one the caller
 * may read, so the link never lands on a 404.
 */
export async function createSigninLink(ctx: ServiceContext, input: z.output<typeof SigninLinkCreateInput>): Promise<z.output<typeof SigninLink>> {
  if (ctx.principal.token.kind !== "human") {
    throw forbidden("Agent tokens cannot sign in to the web: ask for a sign-in link with a human token.");
  }
  const next = input.id === undefined ? "/" : `/a/${encodeURIComponent((await readArtifact(ctx, { id: input.id })).id)}`;
  const now = ctx.now();
  const code = randomBytes(32).toString("base64url");
  const expires = new Date(now.getTime() + SIGNIN_LINK_TTL_MINUTES * MINUTE_MS);
  await ctx.store.transaction(async (tx) => {
    // Bounded housekeeping: this token's spent and stale links go when it asks for a new one.
    await tx.query("delete from signin_links where token_id = $1 and (used_at is not null or expires_at <= $2)", [ctx.principal.token.id, now.toISOString()]);
    await tx.query("insert into signin_links (id, code_hash, token_id, next, created_at, expires_at) values ($1, $2, $3, $4, $5, $6)", [
      newId("sil", now),
      hashToken(code),
      ctx.principal.token.id,
      next,
      now.toISOString(),
      expires.toISOString(),
    ]);
  });
  return { url: `${ctx.config.publicUrl}${SIGNIN_LINK_PATH}${code}`, expires_at: expires.toISOString(), next };
}

/** What following a link gives: a session, and where to go; null when the link is unknown, used, expired or its token revoked. */
export interface FollowedLink {
  session: OpenedSession;
  next: string;
}

/**
 * Follows a sign-in link: marks it used and opens a session for its token in one
 * transaction. The update is the single-use check (a second follower finds `used_at`
 * set), so two browsers racing for one code cannot both get in.
 */
export async function followSigninLink(store: Store, code: string, now: Date): Promise<FollowedLink | null> {
  if (!CODE_SHAPE.test(code)) return null;
  return store.transaction(async (tx) => {
    const [link] = await tx.query<{ token_id: string; next: string }>(
      `update signin_links set used_at = $2
        where code_hash = $1 and used_at is null and expires_at > $2
        returning token_id, next`,
      [hashToken(code), now.toISOString()],
    );
    if (!link) return null;
    const principal = await livePrincipal(tx, { id: link.token_id });
    if (principal?.token.kind !== "human") return null;
    return { session: await insertSession(tx, principal, now), next: link.next };
  });
}

/** Who a sign-in link would sign in, and where it lands. */
export interface PeekedLink {
  user: string;
  next: string;
}

/**
 * Reads a sign-in link without using it (SPEC §24): a GET of the link — a person, or a chat
 * app's or mail scanner's preview — learns only whose it is; the POST of the page's form
 * follows it. Null when the link is unknown, used, expired or its token revoked or an agent's.
 */
export async function peekSigninLink(store: Store, code: string, now: Date): Promise<PeekedLink | null> {
  if (!CODE_SHAPE.test(code)) return null;
  const [link] = await store.query<{ token_id: string; next: string }>(
    "select token_id, next from signin_links where code_hash = $1 and used_at is null and expires_at > $2",
    [hashToken(code), now.toISOString()],
  );
  if (!link) return null;
  const principal = await livePrincipal(store, { id: link.token_id });
  return principal?.token.kind === "human" ? { user: principal.user.name, next: link.next } : null;
}
