import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { CairnError, forbidden, validationFailed } from "../errors.js";
import { newId } from "../ids.js";
import { applySecretRules, DEFAULT_SECRET_RULES } from "../secrets/policy.js";
import type { Sql, Store } from "../store/port.js";
import { parseWith } from "../validation.js";
import { type CreatedToken, type Me, TokenCreateInput, type User, type UserCreateInput, type UserCreateOutput } from "./schemas.js";
import { insertToken } from "./tokens.js";

interface UserRow {
  id: string;
  name: string;
  is_admin: boolean;
  created_at: Date;
}

const toUser = (r: UserRow): User => ({
  id: r.id,
  name: r.name,
  is_admin: r.is_admin,
  created_at: new Date(r.created_at).toISOString(),
});

export async function findUserByName(sql: Sql, name: string): Promise<UserRow | undefined> {
  const [row] = await sql.query<UserRow>("select id, name, is_admin, created_at from users where name = $1", [name]);
  return row;
}

async function insertUser(sql: Sql, name: string, isAdmin: boolean): Promise<UserRow> {
  const [row] = await sql.query<UserRow>(
    `insert into users (id, name, is_admin) values ($1, $2, $3)
     on conflict (name) do nothing
     returning id, name, is_admin, created_at`,
    [newId("usr"), name, isAdmin],
  );
  if (!row) throw validationFailed([{ field: "name", reason: "is already taken" }]);
  return row;
}

export async function createUser(ctx: ServiceContext, input: z.output<typeof UserCreateInput>): Promise<z.output<typeof UserCreateOutput>> {
  if (!ctx.principal.user.is_admin) throw forbidden("Only an administrator can create users.");
  return ctx.store.transaction(async (tx) => {
    const row = await insertUser(tx, input.name, input.is_admin ?? false);
    const token = await insertToken(tx, row, "initial", "human");
    return { user: toUser(row), token };
  });
}

export async function createToken(ctx: ServiceContext, raw: z.output<typeof TokenCreateInput>): Promise<CreatedToken> {
  // A token's name is shown wherever the token acts (provenance, drops): a secret in it is redacted (ADR 0011).
  const [name = raw.name] = (await applySecretRules([{ field: "name", value: raw.name }], DEFAULT_SECRET_RULES)).values;
  const input = { ...raw, name };
  const me = ctx.principal.user;
  if (input.user === undefined || input.user === me.name) return insertToken(ctx.store, me, input.name, input.kind);
  if (!me.is_admin) throw forbidden("Only an administrator can mint tokens for another user.");
  const target = await findUserByName(ctx.store, input.user);
  if (!target) throw new CairnError("not_found", `No user named ${input.user}.`);
  return insertToken(ctx.store, target, input.name, input.kind);
}

export function describeMe(ctx: ServiceContext): z.output<typeof Me> {
  const { user, token, teams } = ctx.principal;
  return { user, token, teams };
}

/** The administrator's first token is called this unless the operator names it (CAIRN_ADMIN_TOKEN_NAME). */
const ADMIN_TOKEN_NAME = "admin";

export interface BootstrapOptions {
  name?: string;
  /** The first token's name, shown wherever it acts (cards, drops); default ADMIN_TOKEN_NAME. */
  tokenName?: string;
  /**
   * Keeps the new token somewhere (the credentials file) before the admin is committed.
   * If it throws, nothing is committed and the next start tries again: the only copy of
   * the admin's token can never be lost between the database and the file.
   */
  persist?(token: CreatedToken): Promise<void>;
}

/**
 * On an empty database, creates the administrator and its first token. Returns the
 * token (for the credentials file) or null when users already exist.
 */
export async function bootstrapAdmin(store: Store, options: BootstrapOptions = {}): Promise<CreatedToken | null> {
  const named = parseWith(TokenCreateInput.shape.name, options.tokenName ?? ADMIN_TOKEN_NAME);
  if (!named.ok) {
    const issues = named.issues.map((i) => ({ ...i, field: "CAIRN_ADMIN_TOKEN_NAME" }));
    throw new CairnError("validation_failed", `CAIRN_ADMIN_TOKEN_NAME ${issues[0]?.reason ?? "is not a token name"}.`, { issues });
  }
  return store.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [7_373_002]);
    const [existing] = await tx.query<{ n: number }>("select count(*)::int as n from users");
    if (existing && existing.n > 0) return null;
    const row = await insertUser(tx, options.name ?? "admin", true);
    const token = await insertToken(tx, row, named.value, "human");
    await options.persist?.(token);
    return token;
  });
}
