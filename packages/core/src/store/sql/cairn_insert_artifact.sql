-- cairn_insert_artifact: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 2
-- Folds: 0010_receipt_write, 0014_assignee, 0033_decisions
CREATE OR REPLACE FUNCTION cairn_insert_artifact(a jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin
  -- measure_due_at is read from the metadata by the one rule (cairn_measure_due_at), never passed in.
  -- The search vector: a receipt's words as its schema chose them (ADR 0074); without them (a plain
  -- artifact, or any artifact of a server of an earlier release) its title and body.
  -- An ask (SPEC §32) is stored with its deadline as a column too, which the expiry job and a late answer read.
  insert into artifacts (id, owner, title, share_type, body, checksum, tags, metadata, provenance, follows,
                         share_token, created_at, expires_at, details, measure_due_at, assignee, search, ask, answer_by)
  values (a->>'id', a->>'owner', a->>'title', a->>'share_type', a->>'body', a->>'checksum', a->'tags',
          (a->>'metadata')::json, (a->>'provenance')::json, a->>'follows', a->>'share_token',
          (a->>'created_at')::timestamptz, (a->>'expires_at')::timestamptz, a->>'details',
          cairn_measure_due_at((a->>'metadata')::jsonb->'outcome'->>'measure_at'), a->>'assignee',
          to_tsvector('english'::regconfig, coalesce(a->>'search_text', (a->>'title') || ' ' || (a->>'body'))),
          a->'ask', (a->'ask'->>'answer_by')::timestamptz);
  if a ? 'assigned_event' then perform cairn_record_event(a->'assigned_event'); end if;
end
$function$
