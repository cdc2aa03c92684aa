import type { Migration } from "./types.js";

/**
 * OTLP resources stored once (SPEC §31, ADR 0043). A resource's attributes were copied
 * into every span it emitted: one resource of 105,000 characters over 1,000 spans stored
 * 105 MB. Now `span_resources` holds each distinct resource once per owner, keyed by the
 * SHA-256 (hex) of its attributes' JSON as stored, and a span names it in `resource_id`.
 * The run read puts the attributes back on each span, so a span still reads with its
 * `resource`. Spans stored before keep working: their copies move into `span_resources`
 * here, and `spans.resource` stays for nothing newer.
 */
export const spanResources: Migration = {
  version: "0019_span_resources",
  sql: `
    create table span_resources (
      owner text not null,
      id text not null,
      attributes json not null,
      created_at timestamptz not null,
      primary key (owner, id)
    );
    alter table spans add column resource_id text;

    insert into span_resources (owner, id, attributes, created_at)
    select distinct on (r.owner, h.id) r.owner, h.id, s.resource, now()
      from spans s
      join runs r on r.id = s.run_id
      cross join lateral (select encode(sha256(convert_to(s.resource::text, 'UTF8')), 'hex') as id) h
     where s.resource is not null and s.resource::text <> '{}'
    on conflict do nothing;

    update spans set
      resource_id = case when resource::text = '{}' then null else encode(sha256(convert_to(resource::text, 'UTF8')), 'hex') end,
      resource = null
     where resource is not null;
  `,
};
