import type { Migration } from "./types.js";

export const foundation: Migration = {
  version: "0001_foundation",
  sql: `
      create table users (
        id text primary key,
        name text not null unique,
        is_admin boolean not null default false,
        created_at timestamptz not null default now()
      );

      create table tokens (
        id text primary key,
        user_id text not null references users(id) on delete cascade,
        name text not null,
        kind text not null check (kind in ('human', 'agent')),
        token_hash text not null unique,
        created_at timestamptz not null default now(),
        revoked_at timestamptz
      );

      create table teams (
        id text primary key,
        name text not null unique,
        created_at timestamptz not null default now()
      );

      create table team_members (
        team_id text not null references teams(id) on delete cascade,
        user_id text not null references users(id) on delete cascade,
        added_at timestamptz not null default now(),
        primary key (team_id, user_id)
      );
      create index team_members_user_idx on team_members (user_id);

      create table artifacts (
        id text primary key,
        owner text not null,
        title text not null,
        share_type text not null,
        body text not null,
        checksum text not null,
        tags jsonb not null default '[]'::jsonb,
        metadata json,
        provenance json not null,
        follows text,
        share_token text not null unique,
        created_at timestamptz not null default now(),
        expires_at timestamptz,
        retained boolean not null default false,
        search tsvector generated always as (
          to_tsvector('english'::regconfig, title || ' ' || body)
        ) stored
      );
      create index artifacts_owner_id_idx on artifacts (owner, id desc);
      create index artifacts_tags_idx on artifacts using gin (tags);
      create index artifacts_search_idx on artifacts using gin (search);
      create index artifacts_owner_checksum_idx on artifacts (owner, checksum, created_at desc);
      create index artifacts_expiry_idx on artifacts (expires_at) where not retained;
    `,
};
