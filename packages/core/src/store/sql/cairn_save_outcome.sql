-- cairn_save_outcome: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 1
-- Folds: 0010_receipt_write
CREATE OR REPLACE FUNCTION cairn_save_outcome(c jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin
  -- plpgsql, not sql: plans kept for the session instead of parsed on every call.
  delete from idempotency_keys where user_id = c->>'user_id' and created_at <= (c->>'since')::timestamptz;
  insert into idempotency_keys (user_id, key, fingerprint, outcome, created_at)
  values (c->>'user_id', c->>'key', c->>'fingerprint', (c->>'outcome')::json, (c->>'created_at')::timestamptz)
  on conflict (user_id, key) do nothing;
end
$function$
