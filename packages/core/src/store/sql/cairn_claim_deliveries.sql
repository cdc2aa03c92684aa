-- cairn_claim_deliveries: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 1
-- Folds: 0013_webhook_operations, 0018_signing_secrets
CREATE OR REPLACE FUNCTION cairn_claim_deliveries(now_at timestamp with time zone, max_claims integer, lease_until timestamp with time zone, per_subscription integer)
 RETURNS TABLE(event_id text, subscription_id text, attempts integer, retry integer, url text, secret text, previous_secrets text[], payload text)
 LANGUAGE plpgsql
AS $function$
    #variable_conflict use_column
    declare
      subs text[];
    begin
      -- 1. The subscriptions with due work and a free slot, oldest first; one another worker is claiming for is skipped.
      --    NO KEY UPDATE does not block new events' foreign-key checks (KEY SHARE). An operator action or a
      --    recorded attempt holding the row (ADR 0041: the subscription first, then its deliveries) is skipped too.
      select array_agg(locked.id) into subs from (
        select s.id from subscriptions s
         cross join lateral (
           select d.next_at from deliveries d
            where d.subscription_id = s.id and d.state = 'pending' and d.next_at <= now_at
            order by d.next_at limit 1
         ) first_due
         where s.enabled
           and (select count(*) from deliveries b
                 where b.subscription_id = s.id and b.state = 'pending' and b.leased_until > now_at) < per_subscription
         order by first_due.next_at
         limit max_claims
         for no key update of s skip locked
      ) locked;
      if subs is null then return; end if;
      -- 2. A new snapshot: what is in flight now, and what is left of each one's slots, first due of every one first.
      return query
        with busy as (
          select d.subscription_id, count(*)::int as n from deliveries d
           where d.subscription_id = any(subs) and d.state = 'pending' and d.leased_until > now_at
           group by d.subscription_id
        ), candidate as (
          select c.event_id, c.subscription_id, c.next_at, c.rank from unnest(subs) as sub(id)
           cross join lateral (
             select d.event_id, d.subscription_id, d.next_at, row_number() over (order by d.next_at, d.event_id) as rank
               from deliveries d
              where d.subscription_id = sub.id and d.state = 'pending' and d.next_at <= now_at
              order by d.next_at, d.event_id limit per_subscription
           ) c
           left join busy on busy.subscription_id = c.subscription_id
           where c.rank <= per_subscription - coalesce(busy.n, 0)
           order by c.rank, c.next_at
           limit max_claims
        )
        update deliveries d set attempts = d.attempts + 1, next_at = lease_until, leased_until = lease_until
          from candidate, subscriptions s, events e
         where d.event_id = candidate.event_id and d.subscription_id = candidate.subscription_id
           and d.state = 'pending' and d.next_at <= now_at
           and s.id = d.subscription_id and e.id = d.event_id
        returning d.event_id, d.subscription_id, d.attempts, d.retry, s.url, s.secret,
                  array(select r.value->>'secret' from jsonb_array_elements(s.replaced_secrets) with ordinality as r(value, n)
                         where (r.value->>'until')::timestamptz > now_at order by r.n),
                  e.payload;
    end $function$
