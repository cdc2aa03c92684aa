-- cairn_write_receipts: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 1
-- Folds: none (no migration defines it; the repeatable step creates it)
CREATE OR REPLACE FUNCTION cairn_write_receipts(ws jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
declare
  answers jsonb := '[]';
  w jsonb;
begin
  -- The receipt writes that arrived in one turn of a server's event loop, in one transaction
  -- (ADR 0066): one round trip and one commit for all of them. Each write is
  -- cairn_write_receipt's, in the order given, so a later one sees an earlier one's row (a
  -- duplicate, a replayed key) exactly as it would had it come second alone.
  perform cairn_require_read_committed('cairn_write_receipts');

  -- Every lock of every write first, in one order every caller shares (the lock's hash): two
  -- calls never wait crosswise, and each write's own locks are then already held.
  perform pg_advisory_xact_lock(l.h)
     from (select distinct hashtext(k.key) as h
             from jsonb_array_elements(ws) as e(w), jsonb_array_elements_text(e.w->'locks') as k(key)) l
    order by l.h;

  for w in select e.w from jsonb_array_elements(ws) with ordinality as e(w, n) order by e.n loop
    answers := answers || jsonb_build_array(cairn_write_receipt(w));
  end loop;
  return answers;
end
$function$
