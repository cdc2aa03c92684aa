import type { Migration } from "./types.js";

/**
 * OAuth 2.1 for the remote MCP endpoint (SPEC §26, ADR 0053). A grant is one `tokens`
 * row (an agent token of the person who allowed it): `oauth_client_id` names the client,
 * `resource` the protected resource it is bound to, `expires_at` ends its current access
 * token (a refresh puts a new hash and a new expiry on the same row), `last_used_at` is
 * when the client last used it. Minted tokens keep all four null and never expire.
 * Codes and refresh tokens are stored as SHA-256 only; `used_at` makes both single use,
 * and a used row is kept (until it is stale) so a second use is recognised as a replay.
 */
export const oauth: Migration = {
  version: "0024_oauth",
  sql: `
      alter table tokens add column expires_at timestamptz;
      alter table tokens add column oauth_client_id text;
      alter table tokens add column resource text;
      alter table tokens add column last_used_at timestamptz;
      create index tokens_oauth_client_idx on tokens (oauth_client_id) where oauth_client_id is not null;

      create table oauth_clients (
        id text primary key,
        kind text not null check (kind in ('registered', 'metadata')),
        name text not null,
        redirect_uris jsonb not null,
        document jsonb not null,
        created_at timestamptz not null,
        fetched_at timestamptz not null
      );

      create table oauth_codes (
        code_hash text primary key,
        client_id text not null,
        user_id text not null references users(id) on delete cascade,
        redirect_uri text not null,
        code_challenge text not null,
        resource text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz,
        token_id text references tokens(id) on delete cascade
      );
      create index oauth_codes_expires_idx on oauth_codes (expires_at);

      create table oauth_refresh_tokens (
        token_hash text primary key,
        token_id text not null references tokens(id) on delete cascade,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      );
      create index oauth_refresh_tokens_token_idx on oauth_refresh_tokens (token_id);
    `,
};
