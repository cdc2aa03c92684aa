import type { Migration } from "./types.js";

/**
 * A run's state and totals (SPEC §28), kept on the run row as spans arrive so that a list
 * or a page never sums spans per read:
 * - `ended_at`: when the run ended — its root span's end, or the close; null while open.
 * - `span_count`, `error_count`: spans stored, and those whose status is `error`.
 * - `input_tokens`, `output_tokens`: the sums of `gen_ai.usage.input_tokens` /
 *   `gen_ai.usage.output_tokens` (whole numbers only; anything else counts 0).
 * - `models`: distinct `gen_ai.request.model` / `gen_ai.response.model` values, sorted.
 * - `first_start_at`, `last_end_at`: the span extent, so `duration_ms` is their difference.
 * - `conversation_id`: the first `gen_ai.conversation.id`, else `session.id`, seen on a span
 *   (or on its resource).
 * Stored runs are backfilled from their spans.
 */
export const runTotals: Migration = {
  version: "0017_run_totals",
  sql: `
    alter table runs
      add column ended_at timestamptz,
      add column span_count integer not null default 0,
      add column error_count integer not null default 0,
      add column input_tokens bigint not null default 0,
      add column output_tokens bigint not null default 0,
      add column models text[] not null default '{}',
      add column first_start_at timestamptz,
      add column last_end_at timestamptz,
      add column conversation_id text;

    update runs r set
      span_count = t.span_count,
      error_count = t.error_count,
      input_tokens = t.input_tokens,
      output_tokens = t.output_tokens,
      first_start_at = t.first_start_at,
      last_end_at = t.last_end_at,
      conversation_id = t.conversation_id
    from (
      select run_id,
        count(*)::int as span_count,
        (count(*) filter (where status::jsonb ->> 'code' = 'error'))::int as error_count,
        coalesce(sum(case when attributes::jsonb ->> 'gen_ai.usage.input_tokens' ~ '^[0-9]{1,15}$'
          then (attributes::jsonb ->> 'gen_ai.usage.input_tokens')::bigint end), 0) as input_tokens,
        coalesce(sum(case when attributes::jsonb ->> 'gen_ai.usage.output_tokens' ~ '^[0-9]{1,15}$'
          then (attributes::jsonb ->> 'gen_ai.usage.output_tokens')::bigint end), 0) as output_tokens,
        min(start_time) as first_start_at,
        max(end_time) as last_end_at,
        min(coalesce(attributes::jsonb ->> 'gen_ai.conversation.id', attributes::jsonb ->> 'session.id',
          resource::jsonb ->> 'gen_ai.conversation.id', resource::jsonb ->> 'session.id')) as conversation_id
      from spans group by run_id
    ) t
    where r.id = t.run_id;

    update runs r set models = m.models
    from (
      select run_id, array_agg(distinct model order by model) as models
      from (
        select run_id, attributes::jsonb ->> 'gen_ai.request.model' as model from spans
        union all
        select run_id, attributes::jsonb ->> 'gen_ai.response.model' from spans
      ) x
      where model is not null and model <> ''
      group by run_id
    ) m
    where r.id = m.run_id;

    update runs r set ended_at = coalesce(r.closed_at, (
      select max(s.end_time) from spans s where s.run_id = r.id and s.parent_span_id is null
    ));
  `,
};
