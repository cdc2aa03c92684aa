-- cairn_require_read_committed: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 1
-- Folds: none (no migration defines it; the repeatable step creates it)
CREATE OR REPLACE FUNCTION cairn_require_read_committed(caller text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin
  -- A write function whose statements must each take a new snapshot runs only under read
  -- committed (ADR 0028): under another level it refuses before writing anything, and its
  -- caller runs it again in a transaction begun as read committed.
  if current_setting('transaction_isolation') <> 'read committed' then
    raise exception '% runs under read committed, not %', caller, current_setting('transaction_isolation')
      using errcode = 'CA001';
  end if;
end
$function$
