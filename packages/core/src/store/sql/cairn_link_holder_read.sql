-- cairn_link_holder_read: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Folds: none (no migration defines it; the repeatable step creates it)
CREATE OR REPLACE FUNCTION cairn_link_holder_read(link_token text)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
AS $function$
begin
  -- A share page's one read (ADR 0057): the row as a link holder sees it, whether a receipt of
  -- the same owner follows it, and its acknowledgements oldest first; null when no artifact has
  -- the token. plpgsql keeps the plan for the session, where the same statement sent as text
  -- was parsed, analysed and planned on every read (ADR 0064). The columns are ARTIFACT_COLUMNS
  -- less `details`, which the card reads from the body.
  return (
    select row_to_json(x)
      from (select a.id, a.owner, a.title, a.share_type, a.body, a.checksum, a.tags, a.metadata, a.provenance, a.follows,
                   a.share_token, a.created_at, a.expires_at, a.retained, a.assignee,
                   exists (select 1 from artifacts f where f.follows = a.id and f.owner = a.owner) as followed,
                   (select json_agg(json_build_object('user_name', k.user_name, 'token_name', k.token_name, 'note', k.note,
                                                      'created_at', k.created_at)
                                    order by k.created_at, k.user_name)
                      from acknowledgements k where k.artifact_id = a.id) as acknowledgements
              from artifacts a
             where a.share_token = link_token) x);
end
$function$
