import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { CairnError, forbidden, notFound } from "../errors.js";
import { LIMITS } from "../limits.js";
import type { TokenList, TokenListInput, TokenRevokeInput, TokenSummary } from "./schemas.js";
import { findUserByName } from "./users.js";

interface TokenRow {
  id: string;
  name: string;
  kind: "human" | "agent";
  user_id: string;
  user_name: string;
  created_at: Date;
  revoked_at: Date | null;
}

const SELECT = `select t.id, t.name, t.kind, t.user_id, u.name as user_name, t.created_at, t.revoked_at
                  from tokens t join users u on u.id = t.user_id`;

const toSummary = (ctx: ServiceContext, r: TokenRow): TokenSummary => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  user: r.user_name,
  created_at: new Date(r.created_at).toISOString(),
  revoked_at: r.revoked_at === null ? null : new Date(r.revoked_at).toISOString(),
  current: r.id === ctx.principal.token.id,
});

/** The caller's tokens (an administrator may name another user), newest first, never their values. */
export async function listTokens(ctx: ServiceContext, input: z.output<typeof TokenListInput>): Promise<z.output<typeof TokenList>> {
  const me = ctx.principal.user;
  let userId = me.id;
  if (input.user !== undefined && input.user !== me.name) {
    if (!me.is_admin) throw forbidden("Only an administrator can list another user's tokens.");
    const target = await findUserByName(ctx.store, input.user);
    if (!target) throw new CairnError("not_found", `No user named ${input.user}.`);
    userId = target.id;
  }
  const limit = input.limit ?? LIMITS.pageDefault;
  const rows = await ctx.store.query<TokenRow>(`${SELECT} where t.user_id = $1 and ($2::text is null or t.id < $2) order by t.id desc limit $3`, [
    userId,
    input.cursor ?? null,
    limit + 1,
  ]);
  const page = rows.slice(0, limit);
  return {
    items: page.map((r) => toSummary(ctx, r)),
    next_cursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/**
 * Revokes a token: its next request is refused (401) on every surface. Administrators
 * revoke anyone's; others only their own, and someone else's token is as not found as a
 * missing one. Revoking a revoked token changes nothing.
 */
export async function revokeToken(ctx: ServiceContext, input: z.output<typeof TokenRevokeInput>): Promise<TokenSummary> {
  const me = ctx.principal.user;
  const [row] = await ctx.store.query<TokenRow>(
    `with revoked as (
       update tokens set revoked_at = coalesce(revoked_at, $3::timestamptz), revoked_by = coalesce(revoked_by, $4)
        where id = $1 and ($2::boolean or user_id = $5)
        returning id, name, kind, user_id, created_at, revoked_at)
     select r.*, u.name as user_name from revoked r join users u on u.id = r.user_id`,
    [input.id, me.is_admin, ctx.now().toISOString(), ctx.principal.token.id, me.id],
  );
  if (!row) throw notFound("token");
  return toSummary(ctx, row);
}
