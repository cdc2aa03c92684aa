import type { Principal, TokenKind } from "../context.js";
import { hashToken, newApiToken, newId } from "../ids.js";
import { ACCESS_TOKEN_PREFIX } from "../oauth/constants.js";
import type { Sql } from "../store/port.js";
import type { CreatedToken } from "./schemas.js";

export interface PrincipalRow {
  user_id: string;
  user_name: string;
  is_admin: boolean;
  token_id: string;
  token_name: string;
  kind: TokenKind;
  teams: string[] | null;
}

/** The principal's columns over `tokens t join users u`; sessions select the same through their token. */
export const PRINCIPAL_COLUMNS = `u.id as user_id, u.name as user_name, u.is_admin, t.id as token_id, t.name as token_name, t.kind,
            (select coalesce(jsonb_agg(tm.name order by tm.name), '[]'::jsonb)
               from team_members m join teams tm on tm.id = m.team_id where m.user_id = u.id) as teams`;

export const toPrincipal = (row: PrincipalRow): Principal => ({
  user: { id: row.user_id, name: row.user_name, is_admin: row.is_admin },
  token: { id: row.token_id, name: row.token_name, kind: row.kind },
  teams: row.teams ?? [],
});

/**
 * The principal of a live token (not revoked; an OAuth access token also not expired,
 * ADR 0053), found by its hash or by its id. Nearly every request reads it, so it is one
 * call of `cairn_live_principal`, whose plans each session keeps (ADR 0069).
 */
export async function livePrincipal(sql: Sql, by: { hash: string } | { id: string }, now?: Date): Promise<Principal | null> {
  const [row] = await sql.query<{ principal: PrincipalRow | null }>("select cairn_live_principal($1, $2, $3::timestamptz) as principal", [
    "hash" in by ? by.hash : null,
    "id" in by ? by.id : null,
    now?.toISOString() ?? null,
  ]);
  return row?.principal ? toPrincipal(row.principal) : null;
}

/**
 * Resolves a bearer token to its principal, or null when it is unknown, revoked or
 * expired. An OAuth access token also records when its app last used it (at most once a
 * minute), for the settings page; minted tokens are not written to on use.
 */
export async function authenticate(sql: Sql, bearer: string, now?: Date): Promise<Principal | null> {
  if (!bearer.startsWith("cairn_") || bearer.length > 200) return null;
  const hash = hashToken(bearer);
  const principal = await livePrincipal(sql, { hash }, now);
  if (principal && bearer.startsWith(ACCESS_TOKEN_PREFIX)) {
    await sql.query(
      `update tokens set last_used_at = $2
        where token_hash = $1 and (last_used_at is null or last_used_at < $2::timestamptz - interval '1 minute')`,
      [hash, (now ?? new Date()).toISOString()],
    );
  }
  return principal;
}

export async function insertToken(sql: Sql, user: { id: string; name: string }, name: string, kind: TokenKind): Promise<CreatedToken> {
  const token = newApiToken();
  const id = newId("tok");
  await sql.query("insert into tokens (id, user_id, name, kind, token_hash) values ($1, $2, $3, $4, $5)", [id, user.id, name, kind, hashToken(token)]);
  return { id, name, kind, user: user.name, token };
}

/** The token in an `Authorization: Bearer …` header value, or null (every surface reads it the same way). */
export function bearerOf(header: string | null | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1] ?? null;
}
