import type { Migration } from "./types.js";

/**
 * Search filters, shorter lives, the expiry sweeper and signing keys (ADR 0020, 0021).
 *
 * - `details` is kept beside the body so an export can carry everything the body is
 *   rendered from (receipts stored before this migration have it null).
 * - `measure_due_at` is when a receipt's `measure_at` falls due: a date-only value from
 *   the start of that day UTC. Written by core on insert; backfilled here once.
 * - The search indexes lead with `owner` because every search is scoped to the owners a
 *   viewer may read; each filter that narrows a lot has its own.
 * - One signing key is active at a time (the partial unique index makes creating the
 *   first one race-safe across processes); retired keys stay for verification.
 * - The receipts-that-ask and follows indexes are made by the human loop's 0007, not here
 *   (this migration once repeated them with `if not exists`; see ADR 0029 on why removing
 *   the repetition changes no installation).
 * - `expiry_sweeps` is one row: what the sweeper last purged and in total (doctor).
 */
export const lifecycle: Migration = {
  version: "0008_lifecycle",
  sql: `
    alter table artifacts add column details text;
    alter table artifacts add column measure_due_at timestamptz;
    update artifacts
       set measure_due_at = (case when length(metadata->'outcome'->>'measure_at') = 10
                                  then (metadata->'outcome'->>'measure_at') || 'T00:00:00Z'
                                  else metadata->'outcome'->>'measure_at' end)::timestamptz
     where metadata->'outcome'->>'measure_at' is not null;

    create index if not exists artifacts_owner_schema_idx on artifacts (owner, (metadata->>'schema'), id desc) where metadata is not null;
    create index if not exists artifacts_owner_outcome_idx on artifacts (owner, (metadata->'outcome'->>'status'), id desc) where metadata is not null;
    create index if not exists artifacts_owner_due_idx on artifacts (owner, measure_due_at) where measure_due_at is not null;

    create table signing_keys (
      kid text primary key,
      public_jwk json not null,
      private_key text not null,
      created_at timestamptz not null,
      retired_at timestamptz
    );
    create unique index signing_keys_one_active_idx on signing_keys ((retired_at is null)) where retired_at is null;

    create table expiry_sweeps (
      id integer primary key check (id = 1),
      last_run_at timestamptz not null,
      last_purged integer not null,
      total_purged bigint not null
    );
  `,
};
