-- cairn_measure_due_at: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 1
-- Folds: 0007_human_loop, 0022_house
CREATE OR REPLACE FUNCTION cairn_measure_due_at(measure_at text)
 RETURNS timestamp with time zone
 LANGUAGE plpgsql
 IMMUTABLE STRICT
AS $function$
begin
  -- plpgsql, not sql: an index expression calls it once per row, and a sql function that is not
  -- inlined is parsed and planned on every call; plpgsql keeps its plan for the session.
  return date_trunc('milliseconds', case when measure_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
                    then (measure_at || 'T00:00:00+00:00')::timestamptz
                    else regexp_replace(measure_at, '(\.[0-9]{3})[0-9]+', '\1')::timestamptz end);
end
$function$
