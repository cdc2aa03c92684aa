import type { Migration } from "./types.js";

/**
 * One source for two rules the receipt write applies (ADR 0050), and the first migration
 * after which every SQL function lives in its own `.sql` file (ADR 0049).
 *
 * - `policies.revision`: every insert or update of a policy row takes the next number of
 *   one sequence (a trigger, so no writer can forget it). The receipt write compares the
 *   revision the gates read with the stored one instead of listing the policy's fields in
 *   TypeScript and SQL; an owner without a row is revision 0.
 * - `cairn_measure_due_at` reads a date-time to the millisecond by cutting further
 *   fraction digits, as JavaScript's Date does, instead of letting PostgreSQL round them
 *   to microseconds first (`…00.0009996Z` was `.001` here and `.000` in TypeScript). The
 *   stored `measure_due_at` of every receipt was computed by that TypeScript reading, so
 *   only the pending-outcome index is rebuilt.
 *
 * Both functions are created here as this migration needs them; their current bodies are
 * in `store/sql/*.sql`, which the repeatable step installs after the migrations.
 */
export const house: Migration = {
  version: "0022_house",
  sql: `
    alter table policies add column revision bigint;
    create sequence cairn_policy_revisions;
    update policies set revision = nextval('cairn_policy_revisions');
    alter table policies alter column revision set not null;

    create function cairn_next_policy_revision() returns trigger language plpgsql as $$
    begin
      new.revision := nextval('cairn_policy_revisions');
      return new;
    end $$;
    create trigger policies_revision before insert or update on policies
      for each row execute function cairn_next_policy_revision();

    create or replace function cairn_measure_due_at(measure_at text) returns timestamptz language sql immutable strict as $$
      select date_trunc('milliseconds', case when measure_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
                        then (measure_at || 'T00:00:00+00:00')::timestamptz
                        else regexp_replace(measure_at, '(\\.[0-9]{3})[0-9]+', '\\1')::timestamptz end) $$;
    reindex index artifacts_pending_due_idx;
  `,
};
