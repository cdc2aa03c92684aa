-- cairn_link_holder_reads: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 2
-- Folds: none (no migration defines it; the repeatable step creates it)
CREATE OR REPLACE FUNCTION cairn_link_holder_reads(link_tokens text[])
 RETURNS json
 LANGUAGE plpgsql
 STABLE
AS $function$
begin
  -- Share pages' reads (ADR 0057, 0064, 0065): for each token, in the order given, the row as a
  -- link holder sees it, whether a receipt of the same owner follows it, and its
  -- acknowledgements oldest first; null where no artifact has the token. The reads that arrive
  -- in one turn of a server's event loop are sent as one call, so a busy server pays one round
  -- trip and one statement for many pages. The columns are ARTIFACT_COLUMNS less `details`,
  -- which the card reads from the body.
  return (
    select json_agg(x.row order by t.n)
      from unnest(link_tokens) with ordinality as t(token, n)
      left join lateral (
        select row_to_json(y) as row
          from (select a.id, a.owner, a.title, a.share_type, a.body, a.checksum, a.tags, a.metadata, a.provenance, a.follows,
                       a.share_token, a.created_at, a.expires_at, a.retained, a.assignee, a.ask, a.decision,
                       exists (select 1 from artifacts f where f.follows = a.id and f.owner = a.owner) as followed,
                       (select json_agg(json_build_object('user_name', k.user_name, 'token_name', k.token_name, 'note', k.note,
                                                          'created_at', k.created_at)
                                        order by k.created_at, k.user_name)
                          from acknowledgements k where k.artifact_id = a.id) as acknowledgements
                  from artifacts a
                 where a.share_token = t.token) y) x on true);
end
$function$
