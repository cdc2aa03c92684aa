-- cairn_insert_spans: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 1
-- Folds: none (no migration defines it; the repeatable step creates it)
CREATE OR REPLACE FUNCTION cairn_insert_spans(at_time timestamp with time zone, span_rows json, runs_by_trace jsonb, resource_rows json, renames json)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
declare
  inserted integer;
begin
  -- plpgsql, not a statement sent each time: its plans are kept for the session, where an
  -- unnamed statement of this size was parsed, analysed and planned on every export (ADR 0061).
  -- The callers (cairn_store_spans for run_append_spans, cairn_ingest_spans for OTLP) hold
  -- the runs' row locks already.
  -- Statements with nothing to do are not run: each costs every export its start-up.
  if json_array_length(resource_rows) > 0 then
    insert into span_resources (owner, id, attributes, created_at)
    select x.owner, x.id, x.attributes, at_time
      from json_to_recordset(resource_rows) as x(owner text, id text, attributes json)
    on conflict do nothing;
  end if;

  -- The spans, their produced edges and their runs' totals (SPEC §28) in one statement. The
  -- totals count only the rows this statement inserted: a span re-sent adds nothing. Each row
  -- carries what it adds (run/totals.ts: spanTotalsOf), so no span's JSON is parsed again
  -- here; a row without those columns (a server of the previous release, during a rolling
  -- deploy) is read from its JSON by 0017's rule: whole numbers of up to 15 digits, else 0.
  -- A row names its run, or (OTLP ingest) the number of its trace in runs_by_trace. A run
  -- marked prefilled was inserted by this export with these spans' totals (ADR 0073): its
  -- spans are not added up again, so an export of new traces only inserts.
  with input as (
    select coalesce(s.run_id, runs_by_trace -> s.t::text ->> 'id') as run_id,
           coalesce(s.prefilled, (runs_by_trace -> s.t::text ->> 'prefilled')::boolean, false) as prefilled,
           s.span_id, s.parent_span_id, s.name,
           s.start_time, s.end_time, s.attributes, s.produced_artifact_id, s.status, s.resource_id, s.conversation_id,
           coalesce(s.error, s.status ->> 'code' = 'error') as error,
           coalesce(s.input_tokens, case when s.attributes ->> 'gen_ai.usage.input_tokens' ~ '^[0-9]{1,15}$'
                                         then (s.attributes ->> 'gen_ai.usage.input_tokens')::bigint else 0 end) as input_tokens,
           coalesce(s.output_tokens, case when s.attributes ->> 'gen_ai.usage.output_tokens' ~ '^[0-9]{1,15}$'
                                          then (s.attributes ->> 'gen_ai.usage.output_tokens')::bigint else 0 end) as output_tokens,
           coalesce(s.request_model, s.attributes ->> 'gen_ai.request.model') as request_model,
           coalesce(s.response_model, s.attributes ->> 'gen_ai.response.model') as response_model
      from json_to_recordset(span_rows) as s(run_id text, t integer, span_id text, parent_span_id text, name text,
        start_time timestamptz, end_time timestamptz, attributes json, produced_artifact_id text, status json,
        resource_id text, conversation_id text, error boolean, input_tokens bigint, output_tokens bigint,
        request_model text, response_model text, prefilled boolean)
  ),
  ins as (
    insert into spans (run_id, span_id, parent_span_id, name, start_time, end_time, attributes, produced_artifact_id, status, resource_id, appended_at)
    select i.run_id, i.span_id, i.parent_span_id, i.name, i.start_time, i.end_time, i.attributes, i.produced_artifact_id, i.status, i.resource_id, at_time
      from input i
    on conflict (run_id, span_id) do nothing
    returning run_id, span_id, produced_artifact_id
  ),
  edges as (
    insert into produced_edges (run_id, span_id, artifact_id, created_at)
    select ins.run_id, ins.span_id, ins.produced_artifact_id, at_time from ins where ins.produced_artifact_id is not null
    on conflict do nothing
  ),
  totals as (
    select i.run_id,
           count(*)::int as n,
           (count(*) filter (where i.error))::int as errors,
           sum(i.input_tokens) as input_tokens,
           sum(i.output_tokens) as output_tokens,
           min(i.start_time) as first_start,
           max(i.end_time) as last_end,
           max(i.end_time) filter (where i.parent_span_id is null) as root_end,
           min(i.conversation_id) as conversation_id,
           array_remove(array_agg(distinct nullif(i.request_model, ''))
                        || array_agg(distinct nullif(i.response_model, '')), null) as models
      from ins join input i on i.run_id = ins.run_id and i.span_id = ins.span_id
     where not i.prefilled
     group by i.run_id
  ),
  touched as (
    -- Driven by the runs that got spans, one index lookup each. The plan is kept, and json_to_recordset
    -- is always estimated at 100 rows: a join of two recordsets here was planned as a nested loop, which
    -- took 20 s for 10,000 traces in one export.
    update runs r set
      span_count = r.span_count + t.n,
      error_count = r.error_count + t.errors,
      input_tokens = r.input_tokens + t.input_tokens,
      output_tokens = r.output_tokens + t.output_tokens,
      models = case when coalesce(cardinality(t.models), 0) = 0 then r.models
                    else array(select distinct m from unnest(r.models || t.models) m order by m) end,
      first_start_at = least(r.first_start_at, t.first_start),
      last_end_at = greatest(r.last_end_at, t.last_end),
      ended_at = greatest(r.ended_at, t.root_end),
      conversation_id = coalesce(r.conversation_id, t.conversation_id)
      from totals t
     where r.id = t.run_id
    returning r.id
  )
  select count(*)::int into inserted from ins;

  -- OTLP ingest names a run by its root span when the root arrives after other spans.
  if json_array_length(renames) > 0 then
    update runs r set name = u.name
      from json_to_recordset(renames) as u(id text, name text)
     where r.id = u.id and u.name is not null;
  end if;
  return inserted;
end
$function$
