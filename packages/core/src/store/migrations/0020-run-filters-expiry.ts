import type { Migration } from "./types.js";

/**
 * Runs people can read (SPEC §28): the indexes behind run_list's filters, and a run's life.
 *
 * - Every filter keeps run_list an index walk per owner, newest first (`order by id desc`,
 *   ids are time-ordered, so `since`/`before` are id bounds on runs_owner_id_idx):
 *   `error` and `status=open` are partial indexes, `conversation` and `agent` (the agent
 *   token's name, or the run's name) composite ones, `model` a GIN index on `models`.
 * - `expires_at`: a run expires under its owner's TTL (policies.default_ttl_days, 7 days
 *   when the owner has no policy row) from its creation, set by a trigger so that every
 *   insert — run_create and OTLP ingest alike — gets it. Stored runs get a full TTL from
 *   this migration, not from their creation: an upgrade does not delete old runs at once.
 *   The sweeper keeps (and extends) a run a live receipt names.
 */
export const runFiltersExpiry: Migration = {
  version: "0020_run_filters_expiry",
  sql: `
    alter table runs add column expires_at timestamptz;

    update runs r set expires_at = now() + make_interval(days => coalesce(
      (select p.default_ttl_days from policies p where p.owner = r.owner), 7));

    alter table runs alter column expires_at set not null;

    create function runs_default_expiry() returns trigger language plpgsql as $$
    begin
      if new.expires_at is null then
        new.expires_at := new.created_at + make_interval(days => coalesce(
          (select p.default_ttl_days from policies p where p.owner = new.owner), 7));
      end if;
      return new;
    end
    $$;

    create trigger runs_default_expiry before insert on runs
      for each row execute function runs_default_expiry();

    create index runs_expires_idx on runs (expires_at);
    create index runs_owner_error_idx on runs (owner, id desc) where error_count > 0;
    create index runs_owner_open_idx on runs (owner, id desc) where ended_at is null and closed_at is null;
    create index runs_owner_ended_idx on runs (owner, id desc) where ended_at is not null or closed_at is not null;
    create index runs_owner_conversation_idx on runs (owner, conversation_id, id desc) where conversation_id is not null;
    create index runs_owner_name_idx on runs (owner, name, id desc);
    create index runs_owner_actor_idx on runs (owner, (provenance -> 'actor' ->> 'name'), id desc);
    create index runs_models_idx on runs using gin (models);
  `,
};
