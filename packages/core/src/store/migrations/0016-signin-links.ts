import type { Migration } from "./types.js";

/**
 * One-time sign-in links (`cairn open`, SPEC §22, ADR 0036). The link holds a random
 * 256-bit code; only its SHA-256 is stored. A link acts as the human token that asked for
 * it: deleting the token deletes its links, and a revoked token's link no longer opens.
 * `used_at` makes a link single use; `expires_at` bounds it to minutes.
 */
export const signinLinks: Migration = {
  version: "0016_signin_links",
  sql: `
      create table signin_links (
        id text primary key,
        code_hash text not null unique,
        token_id text not null references tokens(id) on delete cascade,
        next text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      );
      create index signin_links_token_idx on signin_links (token_id);
    `,
};
