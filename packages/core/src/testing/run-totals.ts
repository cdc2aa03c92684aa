import type { Store } from "../store/port.js";

/**
 * A test fixture for runs whose row still says 0 spans: fills the 0017 state and totals
 * from the stored spans with the backfill's own SQL, as ingest keeps them once it does
 * (OTLP ingest and span append). Where ingest already kept them it changes nothing, so a
 * test using it checks the read side now and ingest's sums later. All runs, or one.
 */
export async function settleRunTotals(store: Pick<Store, "query">, runId: string | null = null): Promise<void> {
  await store.query(
    `update runs r set
       span_count = t.span_count, error_count = t.error_count, input_tokens = t.input_tokens, output_tokens = t.output_tokens,
       first_start_at = t.first_start_at, last_end_at = t.last_end_at, conversation_id = t.conversation_id,
       models = coalesce((select array_agg(distinct m order by m) from (
         select attributes::jsonb ->> 'gen_ai.request.model' as m from spans where run_id = r.id
         union all select attributes::jsonb ->> 'gen_ai.response.model' from spans where run_id = r.id) x where m is not null), '{}'),
       ended_at = coalesce(r.closed_at, (select max(s.end_time) from spans s where s.run_id = r.id and s.parent_span_id is null))
     from (
       select run_id, count(*)::int as span_count,
         (count(*) filter (where status::jsonb ->> 'code' = 'error'))::int as error_count,
         coalesce(sum(case when attributes::jsonb ->> 'gen_ai.usage.input_tokens' ~ '^[0-9]{1,15}$'
           then (attributes::jsonb ->> 'gen_ai.usage.input_tokens')::bigint end), 0) as input_tokens,
         coalesce(sum(case when attributes::jsonb ->> 'gen_ai.usage.output_tokens' ~ '^[0-9]{1,15}$'
           then (attributes::jsonb ->> 'gen_ai.usage.output_tokens')::bigint end), 0) as output_tokens,
         min(start_time) as first_start_at, max(end_time) as last_end_at,
         min(coalesce(attributes::jsonb ->> 'gen_ai.conversation.id', attributes::jsonb ->> 'session.id')) as conversation_id
       from spans where $1::text is null or run_id = $1::text group by run_id
     ) t
     where r.id = t.run_id and r.span_count = 0`,
    [runId],
  );
}
