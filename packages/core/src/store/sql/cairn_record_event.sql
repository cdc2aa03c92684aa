-- cairn_record_event: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 1
-- Folds: 0010_receipt_write
CREATE OR REPLACE FUNCTION cairn_record_event(e jsonb)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
declare
  queued integer;
begin
  -- plpgsql, not sql: a sql function called from another function is parsed and planned on every
  -- call; plpgsql keeps its plans for the session.
  insert into events (id, type, owner, payload, created_at)
  values (e->>'id', e->>'type', e->>'owner', e->>'payload', (e->>'created_at')::timestamptz);
  -- For the notifications' fan-out (ADR 0055, 0062): a small row it deletes, never an update of the event.
  insert into fanout_queue (event_id) values (e->>'id');
  insert into deliveries (event_id, subscription_id, state, next_at, created_at)
  select e->>'id', s.id, 'pending', (e->>'created_at')::timestamptz, (e->>'created_at')::timestamptz
    from subscriptions s
   where s.owner = e->>'owner' and s.enabled and (s.events is null or s.events ? (e->>'type'));
  get diagnostics queued = row_count;
  return queued;
end
$function$
