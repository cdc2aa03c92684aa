import type { Migration } from "./types.js";

/**
 * Token revocation (SPEC §18). `revoked_at` has existed since 0001 (authentication
 * already ignores revoked tokens); this adds who revoked it and the per-user index the
 * token list walks. `if not exists` keeps it valid on every database 0001 created.
 */
export const tokenRevocation: Migration = {
  version: "0004_token_revocation",
  sql: `
      alter table tokens add column if not exists revoked_at timestamptz;
      alter table tokens add column if not exists revoked_by text;
      create index if not exists tokens_user_id_idx on tokens (user_id, id desc);
    `,
};
