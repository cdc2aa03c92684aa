import type { Migration } from "./types.js";

/**
 * Runs, their spans, and the produced_edges a span writes when it names the artifact it
 * produced. The reverse index by artifact serves the "Produced by" list on every read.
 * Teams already exist (0001).
 */
export const runs: Migration = {
  version: "0003_runs",
  sql: `
      create table runs (
        id text primary key,
        owner text not null,
        name text not null,
        provenance json not null,
        created_at timestamptz not null,
        closed_at timestamptz
      );
      create index runs_owner_id_idx on runs (owner, id desc);

      create table spans (
        run_id text not null references runs(id) on delete cascade,
        span_id text not null,
        parent_span_id text,
        name text not null,
        start_time timestamptz not null,
        end_time timestamptz,
        attributes json not null,
        produced_artifact_id text,
        appended_at timestamptz not null,
        primary key (run_id, span_id)
      );

      create table produced_edges (
        run_id text not null,
        span_id text not null,
        artifact_id text not null references artifacts(id) on delete cascade,
        created_at timestamptz not null,
        primary key (run_id, span_id),
        foreign key (run_id, span_id) references spans(run_id, span_id) on delete cascade
      );
      create index produced_edges_artifact_idx on produced_edges (artifact_id, run_id);
    `,
};
