-- cairn_record_event: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Folds: 0010_receipt_write
CREATE OR REPLACE FUNCTION cairn_record_event(e jsonb)
 RETURNS integer
 LANGUAGE sql
AS $function$
  with ev as (
    insert into events (id, type, owner, payload, created_at)
    values (e->>'id', e->>'type', e->>'owner', e->>'payload', (e->>'created_at')::timestamptz)
    returning id, type, owner, created_at
  ), queued as (
    insert into deliveries (event_id, subscription_id, state, next_at, created_at)
    select ev.id, s.id, 'pending', ev.created_at, ev.created_at
      from ev join subscriptions s on s.owner = ev.owner
     where s.enabled and (s.events is null or s.events ? ev.type)
    returning 1
  )
  select count(*)::integer from queued
$function$
