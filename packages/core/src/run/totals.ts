/**
 * A run's totals (migration 0017's columns, SPEC §28) are added to as spans are stored,
 * in the statement that stores them, from the rows it actually inserted: a span re-sent
 * (already there, `on conflict do nothing`) adds nothing. Both writers of spans use it,
 * OTLP ingest and `run_append_spans`.
 *
 * The statement using these fragments has two CTEs: `input` (run_id, span_id,
 * parent_span_id, start_time, end_time, attributes json, status json, conversation_id)
 * and `ins` (run_id, span_id: the rows inserted). TOTALS_CTE adds `totals`; the update is
 * `update runs r set …, ${TOTALS_SET} from … left join totals t on t.run_id = r.id`.
 * Token counts follow 0017's rule: whole numbers of up to 15 digits, anything else 0.
 */
export const TOTALS_CTE = `totals as (
  select i.run_id,
         count(*)::int as n,
         (count(*) filter (where i.status ->> 'code' = 'error'))::int as errors,
         coalesce(sum(case when i.attributes ->> 'gen_ai.usage.input_tokens' ~ '^[0-9]{1,15}$'
                           then (i.attributes ->> 'gen_ai.usage.input_tokens')::bigint end), 0) as input_tokens,
         coalesce(sum(case when i.attributes ->> 'gen_ai.usage.output_tokens' ~ '^[0-9]{1,15}$'
                           then (i.attributes ->> 'gen_ai.usage.output_tokens')::bigint end), 0) as output_tokens,
         min(i.start_time) as first_start,
         max(i.end_time) as last_end,
         max(i.end_time) filter (where i.parent_span_id is null) as root_end,
         min(i.conversation_id) as conversation_id,
         array_remove(array_agg(distinct nullif(i.attributes ->> 'gen_ai.request.model', ''))
                      || array_agg(distinct nullif(i.attributes ->> 'gen_ai.response.model', '')), null) as models
    from ins join input i on i.run_id = ins.run_id and i.span_id = ins.span_id
   group by i.run_id
)`;

/** The run row's totals plus what `totals` (alias t, possibly no row) adds. */
export const TOTALS_SET = `
  span_count = r.span_count + coalesce(t.n, 0),
  error_count = r.error_count + coalesce(t.errors, 0),
  input_tokens = r.input_tokens + coalesce(t.input_tokens, 0),
  output_tokens = r.output_tokens + coalesce(t.output_tokens, 0),
  models = case when coalesce(cardinality(t.models), 0) = 0 then r.models
                else array(select distinct m from unnest(r.models || t.models) m order by m) end,
  first_start_at = least(r.first_start_at, t.first_start),
  last_end_at = greatest(r.last_end_at, t.last_end),
  ended_at = greatest(r.ended_at, t.root_end),
  conversation_id = coalesce(r.conversation_id, t.conversation_id)`;

/** A span's conversation (SPEC §28): `gen_ai.conversation.id`, else `session.id`, on the span, else on its resource. */
export function conversationOf(attributes: Readonly<Record<string, unknown>>, resource: Readonly<Record<string, unknown>> = {}): string | null {
  for (const where of [attributes, resource]) {
    for (const key of ["gen_ai.conversation.id", "session.id"]) {
      const v = Object.hasOwn(where, key) ? where[key] : undefined;
      if (typeof v === "string" && v !== "") return v;
      if (typeof v === "number") return String(v);
    }
  }
  return null;
}
