-- cairn_next_policy_revision: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 1
-- Folds: 0022_house
CREATE OR REPLACE FUNCTION cairn_next_policy_revision()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  -- Every write of a policy row is a new revision: the receipt write compares this one number, never the fields.
  new.revision := nextval('cairn_policy_revisions');
  return new;
end
$function$
