import { randomBytes } from "node:crypto";
import type { Principal } from "../context.js";
import { forbidden, unauthenticated } from "../errors.js";
import { authenticate, PRINCIPAL_COLUMNS, type PrincipalRow, toPrincipal } from "../identity/tokens.js";
import { hashToken, newId } from "../ids.js";
import type { Sql, Store } from "../store/port.js";

/** A web session lasts at most this long; signing in again starts a new one. */
export const SESSION_TTL_DAYS = 7;
const DAY_MS = 86_400_000;
/** Longer input is not a secret this server issued; refused before hashing. */
const MAX_SECRET_LENGTH = 100;

export interface OpenedSession {
  /** The cookie value. Shown once: only its hash is stored. */
  secret: string;
  expires_at: string;
  principal: Principal;
}

const newSessionSecret = () => `cairn_session_${randomBytes(32).toString("base64url")}`;

/**
 * Signs a person in: the bearer token must be a live human token. An agent token is
 * refused, since the web's one write (acknowledging) is a person's statement (SPEC §15).
 * The same words answer an unknown and a revoked token.
 */
export async function openSession(store: Store, bearer: string, now: Date): Promise<OpenedSession> {
  const principal = await authenticate(store, bearer.trim());
  if (!principal) throw unauthenticated("That token is not valid. Paste a Cairn token (cairn_…) that has not been revoked.");
  if (principal.token.kind !== "human") {
    throw forbidden("Agent tokens cannot sign in to the web: sign in with a human token.");
  }
  return store.transaction((tx) => insertSession(tx, principal, now));
}

/** Opens a session for a principal already known to hold a live human token (a password-less sign-in link). */
export async function insertSession(sql: Sql, principal: Principal, now: Date): Promise<OpenedSession> {
  const secret = newSessionSecret();
  const expires = new Date(now.getTime() + SESSION_TTL_DAYS * DAY_MS);
  // Bounded housekeeping: this token's expired sessions go when it opens a new one.
  await sql.query("delete from sessions where token_id = $1 and expires_at <= $2", [principal.token.id, now.toISOString()]);
  await sql.query("insert into sessions (id, secret_hash, token_id, created_at, expires_at) values ($1, $2, $3, $4, $5)", [
    newId("ses", now),
    hashToken(secret),
    principal.token.id,
    now.toISOString(),
    expires.toISOString(),
  ]);
  return { secret, expires_at: expires.toISOString(), principal };
}

/**
 * The principal of a live session, or null. A session acts as its token, so a revoked
 * token ends every session opened with it on the very next request.
 */
export async function authenticateSession(sql: Sql, secret: string, now: Date): Promise<Principal | null> {
  if (!secret.startsWith("cairn_session_") || secret.length > MAX_SECRET_LENGTH) return null;
  const [row] = await sql.query<PrincipalRow>(
    `select ${PRINCIPAL_COLUMNS}
       from sessions s join tokens t on t.id = s.token_id join users u on u.id = t.user_id
      where s.secret_hash = $1 and s.expires_at > $2 and t.revoked_at is null`,
    [hashToken(secret), now.toISOString()],
  );
  return row ? toPrincipal(row) : null;
}

/** Signs out: the session is deleted, so its cookie is worthless even if it was copied. */
export async function closeSession(sql: Sql, secret: string): Promise<void> {
  if (!secret.startsWith("cairn_session_") || secret.length > MAX_SECRET_LENGTH) return;
  await sql.query("delete from sessions where secret_hash = $1", [hashToken(secret)]);
}
