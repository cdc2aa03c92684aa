-- runs_default_expiry: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 1
-- Folds: 0020_run_filters_expiry
CREATE OR REPLACE FUNCTION runs_default_expiry()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if new.expires_at is null then
        new.expires_at := new.created_at + make_interval(days => coalesce(
          (select p.default_ttl_days from policies p where p.owner = new.owner), 7));
      end if;
      return new;
    end
    $function$
