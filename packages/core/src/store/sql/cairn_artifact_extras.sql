-- cairn_artifact_extras: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 1
-- Folds: none (no migration defines it; the repeatable step creates it)
CREATE OR REPLACE FUNCTION cairn_artifact_extras(ids text[], followed text[], receipts text[])
 RETURNS json
 LANGUAGE plpgsql
 STABLE
AS $function$
begin
  -- What a page of artifacts shows beside its rows (artifact/internal.ts, ADR 0069), in one
  -- call: the receipts they follow (`followed`), the runs linked to them by a span or by
  -- the trace id a receipt named, the receipts that follow them, and the acknowledgements
  -- of the receipts among them (`receipts`), oldest first. Who may see which link is
  -- decided by the caller (artifact/links.ts); this only reads.
  return json_build_object(
    'targets', (select coalesce(json_agg(json_build_object('id', a.id, 'owner', a.owner, 'share_token', a.share_token)), '[]')
                  from artifacts a where a.id = any(followed)),
    'producers', (select coalesce(json_agg(x order by x.artifact_id, x.id), '[]')
                    from (select e.artifact_id, r.id, r.name, r.owner
                            from produced_edges e join runs r on r.id = e.run_id
                           where e.artifact_id = any(ids)
                          union
                          select t.artifact_id, r.id, r.name, r.owner
                            from trace_links t join runs r on r.owner = t.owner and r.trace_id = t.trace_id
                           where t.artifact_id = any(ids)) x),
    'followers', (select coalesce(json_agg(json_build_object('id', a.id, 'owner', a.owner, 'follows', a.follows, 'share_token', a.share_token)
                                           order by a.follows, a.id), '[]')
                    from artifacts a where a.follows = any(ids)),
    'acknowledgements', (select coalesce(json_agg(json_build_object('artifact_id', k.artifact_id, 'user_name', k.user_name, 'token_name', k.token_name,
                                                                    'note', k.note, 'created_at', k.created_at)
                                                  order by k.artifact_id, k.created_at, k.user_name), '[]')
                           from acknowledgements k where k.artifact_id = any(receipts)));
end
$function$
