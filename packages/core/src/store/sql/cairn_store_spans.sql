-- cairn_store_spans: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 1
-- Folds: none (no migration defines it; the repeatable step creates it)
CREATE OR REPLACE FUNCTION cairn_store_spans(at_time timestamp with time zone, span_rows json, resource_rows json, renames json)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
begin
  -- run_append_spans' write: rows that name their run (cairn_insert_spans, ADR 0061).
  return cairn_insert_spans(at_time, span_rows, null, resource_rows, renames);
end
$function$
