-- cairn_ingest_spans: the current definition, as pg_get_functiondef prints it (without the schema).
-- Edit it here only; the repeatable step re-creates it when this file changes (packages/core/README.md).
-- Generation: 1
-- Folds: none (no migration defines it; the repeatable step creates it)
CREATE OR REPLACE FUNCTION cairn_ingest_spans(at_time timestamp with time zone, traces json, span_rows json, resource_rows json, run_provenance json, spans_per_run integer, names_artifacts boolean, stale_checks json)
 RETURNS json
 LANGUAGE plpgsql
AS $function$
declare
  by_trace jsonb;
  runs_by_n jsonb;
  renames json;
  admitted json;
  linked jsonb;
  unlinked json;
  kept_resources json;
  closed_n integer;
  stored_n integer;
  full_n integer;
  admitted_n integer;
  inserted integer;
  sifted boolean;
  run_ids json;
  stale text;
begin
  perform cairn_require_read_committed('cairn_ingest_spans');

  -- What the scan relied on, when the caller remembered it (ADR 0027): the token, the caller's
  -- owner teams, each owner's policy revision. Any change, and nothing is written.
  -- One statement for the three, each statement on this path being a cost every export pays.
  if stale_checks is not null then
    select case
             when not exists (select 1 from tokens where id = stale_checks ->> 'token_id' and revoked_at is null) then 'token'
             when exists (select 1 from json_array_elements_text(stale_checks -> 'teams') as g(name)
                           where not exists (select 1 from team_members m join teams tm on tm.id = m.team_id
                                              where tm.name = g.name and m.user_id = stale_checks ->> 'user_id')) then 'team'
             when exists (select 1 from json_to_recordset(stale_checks -> 'policies') as p(owner text, revision bigint)
                           where coalesce((select x.revision from policies x where x.owner = p.owner), 0) <> p.revision) then 'policy'
           end
      into stale;
    if stale is not null then return json_build_object('stale', stale); end if;
  end if;

  -- OTLP ingest's whole write for a batch of spans in one call, so an export costs one round
  -- trip whatever its trace count (ADR 0063). One statement per step, each with its own
  -- snapshot under read committed: the spans below see every span a concurrent export of the
  -- same trace committed while this one waited for the run's row lock. Rows are matched
  -- through jsonb objects, never by joining two recordsets: the kept plans estimate every
  -- recordset at 100 rows, and such a join was planned as a nested loop (ADR 0061).

  -- Each trace's run, made on first sight or locked as it is (the no-op update takes the row
  -- lock), in the caller's (owner, trace id) order, so two exports of the same traces never deadlock.
  -- A run made here is written with the totals of the spans that come with it, when the caller
  -- sent them (every span of the trace goes in): one row version, where an insert and then an
  -- update of the totals wrote two, each across the runs' indexes (ADR 0073). Models are sorted
  -- and the least conversation picked here, in the database's collation, as for later spans.
  with u as (
    insert into runs (id, owner, name, provenance, created_at, trace_id, span_count, error_count, input_tokens, output_tokens,
                      models, first_start_at, last_end_at, ended_at, conversation_id)
    select t.id, t.owner, t.name, run_provenance, at_time, t.trace_id,
           coalesce((t.totals ->> 'span_count')::integer, 0),
           coalesce((t.totals ->> 'error_count')::integer, 0),
           coalesce((t.totals ->> 'input_tokens')::bigint, 0),
           coalesce((t.totals ->> 'output_tokens')::bigint, 0),
           array(select distinct m from json_array_elements_text(t.totals -> 'models') as m order by m),
           (t.totals ->> 'first_start_at')::timestamptz,
           (t.totals ->> 'last_end_at')::timestamptz,
           (t.totals ->> 'ended_at')::timestamptz,
           (select min(c) from json_array_elements_text(t.totals -> 'conversations') as c)
      from json_to_recordset(traces) as t(n integer, id text, owner text, trace_id text, name text, totals json)
     order by t.n
    on conflict (owner, trace_id) where trace_id is not null do update set trace_id = excluded.trace_id
    returning runs.id, runs.owner, runs.trace_id, runs.name, runs.closed_at, runs.span_count
  )
  select jsonb_object_agg(u.owner || chr(1) || u.trace_id,
                          jsonb_build_object('id', u.id, 'owner', u.owner, 'name', u.name, 'closed', u.closed_at is not null, 'span_count', u.span_count))
    into by_trace
    from u;

  -- The runs by the traces' numbers, and the runs to rename: OTLP names a run by its root
  -- span when the root arrives after other spans did.
  -- Whether any span must be sifted: one of a closed run, or of a run these spans could fill.
  -- A run written with its totals just now (the id this call proposed is the one it holds) is
  -- marked so its spans add nothing more, and counts as empty for the sifting.
  select jsonb_object_agg(x.n::text, case when x.prefilled then x.r || '{"span_count": 0, "prefilled": true}' else x.r end),
         json_agg(json_build_object('id', x.r ->> 'id', 'name', x.name))
           filter (where x.from_root and not (x.r ->> 'closed')::boolean and x.name <> x.r ->> 'name'),
         coalesce(bool_or((x.r ->> 'closed')::boolean
                          or (case when x.prefilled then 0 else (x.r ->> 'span_count')::integer end) + x.offered > spans_per_run), false),
         coalesce(sum(x.offered), 0)::integer,
         json_agg(x.r ->> 'id')
    into runs_by_n, renames, sifted, admitted_n, run_ids
    from (select t.n, t.name, t.from_root, t.offered, r.r, t.totals is not null and r.r ->> 'id' = t.id as prefilled
            from json_to_recordset(traces) as t(n integer, id text, owner text, trace_id text, name text, from_root boolean, offered integer, totals json)
           cross join lateral (select by_trace -> (t.owner || chr(1) || t.trace_id) as r) r) x;

  if not sifted and not names_artifacts then
    -- The common export: every span goes in, as sent, matched to its run by its trace's number.
    inserted := cairn_insert_spans(at_time, span_rows, runs_by_n, resource_rows, coalesce(renames, '[]'));
    return json_build_object(
      'run_ids', run_ids, 'inserted', inserted, 'admitted', admitted_n, 'closed', 0, 'stored', 0, 'full', 0, 'unlinked', '{}'::json);
  end if;

  -- Which spans go in: none to a closed run; to a run these spans could fill, only those not
  -- stored yet, up to the run's room, in the order sent.
  with s as (
    select s.*, runs_by_n -> s.t::text as r
      from json_to_recordset(span_rows) as s(t integer, n integer, span_id text, parent_span_id text, name text,
        start_time timestamptz, end_time timestamptz, attributes json, produced_artifact_id text, status json,
        resource_id text, conversation_id text, error boolean, input_tokens bigint, output_tokens bigint,
        request_model text, response_model text)
  ),
  c as (
    select s.t, s.n, s.r ->> 'id' as run_id, s.r ->> 'owner' as owner, (s.r ->> 'closed')::boolean as closed,
           coalesce((s.r ->> 'prefilled')::boolean, false) as prefilled,
           (s.r ->> 'span_count')::integer as span_count, count(*) over (partition by s.t) as offered,
           s.span_id, s.parent_span_id, s.name, s.start_time, s.end_time, s.attributes, s.produced_artifact_id, s.status,
           s.resource_id, s.conversation_id, s.error, s.input_tokens, s.output_tokens, s.request_model, s.response_model
      from s
  ),
  o as (
    select c.*, (c.span_count + c.offered > spans_per_run
                 and exists (select 1 from spans x where x.run_id = c.run_id and x.span_id = c.span_id)) as stored
      from c where not c.closed
  ),
  f as (
    select o.*, row_number() over (partition by o.run_id order by o.n) <= greatest(spans_per_run - o.span_count, 0) as fits
      from o where not o.stored
  )
  select (select count(*) from c where c.closed)::integer,
         (select count(*) from o where o.stored)::integer,
         (select count(*) from f where not f.fits)::integer,
         (select count(*) from f where f.fits)::integer,
         (select json_agg(f order by f.n) from f where f.fits)
    into closed_n, stored_n, full_n, admitted_n, admitted;

  -- cairn.artifact.id links a span to an artifact of the run's owner (§9); one naming another
  -- owner's artifact, or none, is stored unlinked. Locked (for share) so it cannot vanish
  -- before its edge is written.
  if admitted_n > 0 and exists (select 1 from json_to_recordset(admitted) as a(produced_artifact_id text) where a.produced_artifact_id is not null) then
    select coalesce(jsonb_object_agg(l.k, true), '{}') into linked
      from (select a.owner || chr(1) || a.id as k
              from (select distinct w.owner, w.produced_artifact_id
                      from json_to_recordset(admitted) as w(owner text, produced_artifact_id text)
                     where w.produced_artifact_id is not null) w
              join artifacts a on a.id = w.produced_artifact_id and a.owner = w.owner
             order by a.id
               for share of a) l;
    select json_agg(case when m.ok then m.e else jsonb_set(m.e::jsonb, '{produced_artifact_id}', 'null')::json end order by m.i),
           (select json_object_agg(g.owner, g.n)
              from (select m2.owner, count(*) as n from json_to_recordset(admitted) as m2(owner text, produced_artifact_id text)
                     where m2.produced_artifact_id is not null and not linked ? (m2.owner || chr(1) || m2.produced_artifact_id)
                     group by m2.owner) g)
      into admitted, unlinked
      from (select e.value as e, e.ordinality as i,
                   e.value ->> 'produced_artifact_id' is null
                   or linked ? ((e.value ->> 'owner') || chr(1) || (e.value ->> 'produced_artifact_id')) as ok
              from json_array_elements(admitted) with ordinality as e) m;
  end if;

  -- Resources only of the spans that go in: one that only a refused span named is not stored.
  select json_agg(x) into kept_resources
    from json_to_recordset(resource_rows) as x(owner text, id text, attributes json)
   where (select jsonb_object_agg(a.owner || chr(1) || a.resource_id, true)
            from json_to_recordset(admitted) as a(owner text, resource_id text)
           where a.resource_id is not null) ? (x.owner || chr(1) || x.id);

  inserted := cairn_insert_spans(at_time, coalesce(admitted, '[]'), null, coalesce(kept_resources, '[]'), coalesce(renames, '[]'));

  return json_build_object(
    'run_ids', run_ids,
    'inserted', inserted,
    'admitted', admitted_n,
    'closed', closed_n,
    'stored', stored_n,
    'full', full_n,
    'unlinked', coalesce(unlinked, '{}'));
end
$function$
