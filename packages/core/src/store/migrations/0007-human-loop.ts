import type { Migration } from "./types.js";

/**
 * The human loop (SPEC §15, ADR 0017). Acknowledgements are their own immutable records,
 * one per receipt and user, so the receipt, its body and its checksum never change. The
 * measure_due notices make `receipt.measure_due` fire once per receipt: the primary key
 * decides, in the transaction that writes the event, even with many workers.
 *
 * `cairn_measure_due_at` is the one reading of `outcome.measure_at`: a date-only value is
 * due from the start of that day in UTC; a date-time always carries its zone (the
 * validator requires one), so the cast does not depend on the session's time zone and the
 * function is immutable (which lets the pending-outcome index use it). Millisecond
 * precision, like every time the API shows, so a cursor holding a due time is exact.
 *
 * The receipts-that-ask and follows indexes are made here only (the search filters of
 * 0008 use them too).
 */
export const humanLoop: Migration = {
  version: "0007_human_loop",
  sql: `
    create table acknowledgements (
      artifact_id text not null references artifacts(id) on delete cascade,
      user_id text not null references users(id) on delete cascade,
      user_name text not null,
      token_id text not null,
      token_name text not null,
      note text,
      created_at timestamptz not null,
      primary key (artifact_id, user_id)
    );

    create table measure_due_notices (
      artifact_id text primary key references artifacts(id) on delete cascade,
      owner text not null,
      measure_at text not null,
      emitted_at timestamptz not null
    );

    create function cairn_measure_due_at(measure_at text) returns timestamptz
      language sql immutable strict
      as $$ select date_trunc('milliseconds', case when measure_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
                        then (measure_at || 'T00:00:00+00:00')::timestamptz
                        else measure_at::timestamptz end) $$;

    create index if not exists artifacts_owner_action_idx on artifacts (owner, id desc) where metadata->>'human_action' <> 'Nothing';
    create index if not exists artifacts_follows_idx on artifacts (follows) where follows is not null;
    create index artifacts_pending_due_idx on artifacts (cairn_measure_due_at(metadata->'outcome'->>'measure_at'), id)
      where (metadata->'outcome'->>'status') = 'pending';
  `,
};
