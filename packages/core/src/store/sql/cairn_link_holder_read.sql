-- cairn_link_holder_read: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 1
-- Folds: none (no migration defines it; the repeatable step creates it)
CREATE OR REPLACE FUNCTION cairn_link_holder_read(link_token text)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
AS $function$
begin
  -- One share page's read, as processes of the previous release call it during a rolling
  -- deploy; this release reads through cairn_link_holder_reads (ADR 0065).
  return cairn_link_holder_reads(array[link_token]) -> 0;
end
$function$
