import type { Migration } from "./types.js";

/** Owner policies, drop receipts and idempotency keys (ADR 0007, 0008). */
export const gates: Migration = {
  version: "0002_gates",
  sql: `
    create table policies (
      owner text primary key,
      secrets text not null default 'redact' check (secrets in ('redact', 'block')),
      entropy_detection boolean not null default false,
      require_evidence boolean not null default false,
      default_ttl_days integer not null default 7 check (default_ttl_days between 1 and 3650),
      updated_at timestamptz not null default now(),
      updated_by text
    );

    create table drops (
      id text primary key,
      owner text not null,
      category text not null,
      fields jsonb not null default '[]'::jsonb,
      title text,
      title_withheld boolean not null default false,
      surface text not null,
      actor json not null,
      model text,
      rule text,
      created_at timestamptz not null
    );
    create index drops_owner_id_idx on drops (owner, id desc);
    create index drops_owner_created_idx on drops (owner, created_at desc);

    create table idempotency_keys (
      user_id text not null references users(id) on delete cascade,
      key text not null,
      fingerprint text not null,
      outcome json not null,
      created_at timestamptz not null,
      primary key (user_id, key)
    );
  `,
};
