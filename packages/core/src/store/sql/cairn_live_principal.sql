-- cairn_live_principal: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 1
-- Folds: none (no migration defines it; the repeatable step creates it)
CREATE OR REPLACE FUNCTION cairn_live_principal(by_hash text, by_id text, as_of timestamp with time zone)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
AS $function$
begin
  -- The principal of a live token (identity/tokens.ts, ADR 0069): by its hash (a bearer
  -- arriving) or by its id (a remembered caller re-read), not revoked and, for an OAuth
  -- access token, not expired; null when there is none. Every request but a receipt's or an
  -- export's write reads it, so its two plans are kept here, per session, instead of being
  -- made again for a statement sent as text each time.
  if by_hash is not null then
    return (select row_to_json(p)
              from (select u.id as user_id, u.name as user_name, u.is_admin, t.id as token_id, t.name as token_name, t.kind,
                           (select coalesce(jsonb_agg(tm.name order by tm.name), '[]'::jsonb)
                              from team_members m join teams tm on tm.id = m.team_id where m.user_id = u.id) as teams
                      from tokens t join users u on u.id = t.user_id
                     where t.token_hash = by_hash and t.revoked_at is null
                       and (t.expires_at is null or t.expires_at > coalesce(as_of, now()))) p);
  end if;
  return (select row_to_json(p)
            from (select u.id as user_id, u.name as user_name, u.is_admin, t.id as token_id, t.name as token_name, t.kind,
                         (select coalesce(jsonb_agg(tm.name order by tm.name), '[]'::jsonb)
                            from team_members m join teams tm on tm.id = m.team_id where m.user_id = u.id) as teams
                    from tokens t join users u on u.id = t.user_id
                   where t.id = by_id and t.revoked_at is null
                     and (t.expires_at is null or t.expires_at > coalesce(as_of, now()))) p);
end
$function$
