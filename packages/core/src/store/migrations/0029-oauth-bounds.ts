import type { Migration } from "./types.js";

/**
 * Bounds on what a stranger can leave in the OAuth tables (SPEC §37, ADR 0075).
 * `oauth_clients.granted_at` is when a person first allowed the client: a client nobody
 * allowed is "unused", the only kind the registration cap and the weekly cleanup delete,
 * found through a partial index instead of a scan. `oauth_refresh_tokens.reissue` holds,
 * for a few seconds after a refresh, the pair it was answered with, encrypted under a key
 * derived from the spent refresh token itself: a second process of the same client that
 * presents that token in the race gets the same pair back; the database never holds a
 * usable token.
 */
export const oauthBounds: Migration = {
  version: "0029_oauth_bounds",
  sql: `
    alter table oauth_clients add column granted_at timestamptz;
    update oauth_clients c set granted_at = c.created_at
     where exists (select 1 from tokens t where t.oauth_client_id = c.id);
    create index oauth_clients_unused_idx on oauth_clients (created_at, id) where granted_at is null;
    alter table oauth_refresh_tokens add column reissue text;
  `,
};
