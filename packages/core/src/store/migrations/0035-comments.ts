import type { Migration } from "./types.js";

/**
 * Comments on a receipt (SPEC §34): keyed by the artifact alone, so they follow a transfer
 * and go with the artifact. A deleted comment keeps its row as a tombstone: `body` is
 * cleared, `deleted_by` and `deleted_at` say who and when. Listed oldest first by id.
 */
export const comments: Migration = {
  version: "0035_comments",
  sql: `
    create table if not exists comments (
      id text primary key,
      artifact_id text not null references artifacts(id) on delete cascade,
      author text not null,
      token_name text not null,
      token_kind text not null,
      body text,
      created_at timestamptz not null,
      deleted_by text,
      deleted_at timestamptz
    );
    create index if not exists comments_artifact_idx on comments (artifact_id, id);
  `,
};
