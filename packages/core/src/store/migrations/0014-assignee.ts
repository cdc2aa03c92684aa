import type { Migration } from "./types.js";

/**
 * The assignee (SPEC §20, ADR 0032): at most one named user per artifact, stored by name
 * (user names never change). The partial index serves the inbox's `assignee=` filter and
 * the status line's "yours" count. `cairn_insert_artifact` now writes it and, when the
 * write names one, records its `artifact.assigned` event in the same statement — so the
 * receipt write (`cairn_write_receipt`, unchanged) commits artifact, both events and the
 * idempotency outcome together.
 *
 * Receipts stored before this migration whose pending outcome falls due after their
 * expiry get the rule new receipts follow (SPEC §20): kept until 7 days after it falls
 * due, so the sweeper does not delete them before `receipt.measure_due` can fire. (Which of
 * them asked for a shorter `expires_in` was never stored; keeping one a little longer loses
 * nothing, deleting one early loses its outcome.)
 */
export const assignee: Migration = {
  version: "0014_assignee",
  sql: `
    alter table artifacts add column if not exists assignee text;
    create index if not exists artifacts_assignee_idx on artifacts (assignee, id) where assignee is not null;
    update artifacts set expires_at = least(measure_due_at + interval '7 days', timestamptz '9999-12-31 23:59:59.999+00')
     where not retained and expires_at is not null and measure_due_at is not null and measure_due_at >= expires_at
       and metadata is not null and metadata->'outcome'->>'status' = 'pending';

    create or replace function cairn_insert_artifact(a jsonb) returns void language plpgsql as $$
    begin
      insert into artifacts (id, owner, title, share_type, body, checksum, tags, metadata, provenance, follows,
                             share_token, created_at, expires_at, details, measure_due_at, assignee)
      values (a->>'id', a->>'owner', a->>'title', a->>'share_type', a->>'body', a->>'checksum', a->'tags',
              (a->>'metadata')::json, (a->>'provenance')::json, a->>'follows', a->>'share_token',
              (a->>'created_at')::timestamptz, (a->>'expires_at')::timestamptz, a->>'details',
              (a->>'measure_due_at')::timestamptz, a->>'assignee');
      if a ? 'assigned_event' then perform cairn_record_event(a->'assigned_event'); end if;
    end $$;
  `,
};
