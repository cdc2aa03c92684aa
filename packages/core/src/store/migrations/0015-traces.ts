import type { Migration } from "./types.js";

/**
 * OTLP traces into runs (SPEC §21, ADR 0034). A run made from a trace carries its
 * `trace_id`; one run per trace id and owner, so the unique index is what makes two
 * concurrent exports of the same trace meet in one run. Spans keep their OTLP status and
 * their resource's attributes. `trace_links` is a receipt that named its trace (a W3C
 * `traceparent`): it joins the owner's run of that trace id whenever the run exists, so
 * the receipt may arrive before the spans do.
 */
export const traces: Migration = {
  version: "0015_traces",
  sql: `
    alter table runs add column trace_id text;
    create unique index runs_owner_trace_idx on runs (owner, trace_id) where trace_id is not null;

    alter table spans add column status json;
    alter table spans add column resource json;

    create table trace_links (
      artifact_id text primary key references artifacts(id) on delete cascade,
      owner text not null,
      trace_id text not null,
      parent_span_id text not null,
      created_at timestamptz not null
    );
    create index trace_links_owner_trace_idx on trace_links (owner, trace_id);
  `,
};
