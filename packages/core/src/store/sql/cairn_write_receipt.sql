-- cairn_write_receipt: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 1
-- Folds: 0010_receipt_write, 0012_receipt_write_edges
CREATE OR REPLACE FUNCTION cairn_write_receipt(w jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
declare
  policy_revision bigint;
  a jsonb := w->'artifact';
  c jsonb := nullif(w->'claim', 'null');
  t jsonb := nullif(w->'trace', 'null');
  at_time timestamptz := (w->>'now')::timestamptz;
  seen record;
  dup record;
  queued integer;
begin
  -- Each statement below takes a new snapshot after the locks: only read committed gives that (ADR 0028).
  perform cairn_require_read_committed('cairn_write_receipt');

  -- One statement for every lock, taken in the array's order (the caller's one lock order).
  perform pg_advisory_xact_lock(hashtext(k.key)) from jsonb_array_elements_text(w->'locks') with ordinality as k(key, n) order by k.n;

  -- What the decision relied on, checked under the locks: the token, the owner team, the policy's revision.
  perform 1 from tokens where id = w->>'token_id' and revoked_at is null;
  if not found then return '{"status":"stale","why":"token"}'; end if;
  if w->>'team' is not null then
    perform 1 from team_members m join teams tm on tm.id = m.team_id
     where tm.name = w->>'team' and m.user_id = w->>'user_id';
    if not found then return '{"status":"stale","why":"team"}'; end if;
  end if;
  select p.revision into policy_revision from policies p where p.owner = a->>'owner';
  if coalesce(policy_revision, 0) <> (w->>'policy_revision')::bigint then
    return '{"status":"stale","why":"policy"}';
  end if;

  -- The key's first answer, the only place an accepted submission reads it.
  if c is not null then
    select i.fingerprint, i.outcome::text as outcome into seen from idempotency_keys i
     where i.user_id = c->>'user_id' and i.key = c->>'key' and i.created_at > (c->>'since')::timestamptz;
    if found then
      return jsonb_build_object('status', 'replay', 'fingerprint', seen.fingerprint, 'outcome', seen.outcome);
    end if;
  end if;

  -- follows: a live receipt of the same owner, held (for share) so an expiry sweep waits for this commit.
  if a->>'follows' is not null then
    perform 1 from artifacts f
     where f.id = a->>'follows' and f.owner = a->>'owner' and f.metadata->>'schema' = w->>'receipt_schema'
       and (f.retained or f.expires_at is null or f.expires_at > at_time)
       for share;
    if not found then return '{"status":"foreign-link"}'; end if;
  end if;

  -- The assignee may read it: the owner user, or a member of the owner team whose membership is held (for share),
  -- so a removal waits for this commit and then clears the assignment it made.
  if a->>'assignee' is not null then
    if a->>'owner' like 'user:%' then
      perform 1 from users u where u.name = a->>'assignee' and a->>'owner' = 'user:' || u.name;
    else
      perform 1 from team_members m join teams tm on tm.id = m.team_id join users u on u.id = m.user_id
       where 'team:' || tm.name = a->>'owner' and u.name = a->>'assignee'
         for share of m;
    end if;
    if not found then return '{"status":"unassignable"}'; end if;
  end if;

  select x.id, x.share_token into dup from artifacts x
   where x.owner = a->>'owner' and x.checksum = a->>'checksum' and x.metadata is not null
     and x.created_at > (w->>'duplicate_since')::timestamptz and x.follows is not distinct from a->>'follows'
     and (x.retained or x.expires_at is null or x.expires_at > at_time)
   order by x.created_at desc limit 1;
  if found then
    return jsonb_build_object('status', 'duplicate', 'id', dup.id, 'share_token', dup.share_token);
  end if;

  perform cairn_insert_artifact(a);
  if t is not null then
    insert into trace_links (artifact_id, owner, trace_id, parent_span_id, created_at)
    values (a->>'id', a->>'owner', t->>'trace_id', t->>'parent_span_id', at_time);
  end if;
  queued := cairn_record_event(w->'event');
  -- The assigned event (recorded with the artifact) counts too: the caller wakes the worker only when something was queued.
  if a ? 'assigned_event' then
    queued := queued + (select count(*)::integer from deliveries d where d.event_id = a->'assigned_event'->>'id');
  end if;
  if c is not null then perform cairn_save_outcome(c); end if;
  return jsonb_build_object('status', 'created', 'deliveries', queued);
end
$function$
