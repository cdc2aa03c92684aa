import type { Migration } from "./types.js";

/**
 * Web sign-in sessions (ADR 0018). The cookie holds a random secret; only its SHA-256 is
 * stored. A session acts as the token it was opened with, so deleting the token deletes
 * its sessions and revoking it (`tokens.revoked_at`) ends them on the next request.
 */
export const sessions: Migration = {
  version: "0006_sessions",
  sql: `
      create table sessions (
        id text primary key,
        secret_hash text not null unique,
        token_id text not null references tokens(id) on delete cascade,
        created_at timestamptz not null,
        expires_at timestamptz not null
      );
      create index sessions_token_idx on sessions (token_id);
      create index sessions_expiry_idx on sessions (expires_at);
    `,
};
