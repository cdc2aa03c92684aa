import type { Migration } from "./types.js";

/**
 * A receipt's write as one call (ADR 0027): the locks, the re-check of what the gates
 * relied on (the token is live, the owner team still has the caller, the owner's policy
 * is the one gated against), the idempotency replay, the duplicate check, the insert,
 * the outbox row and the key's outcome — one round trip, one transaction.
 *
 * PL/pgSQL on purpose: each statement in it takes a new snapshot after the advisory
 * locks are held, so a writer that waited on a lock sees what the holder committed. One
 * SQL statement could not: its snapshot is taken before any lock inside it is granted.
 *
 * The outbox row answers how many deliveries it queued, so a write that queued none does
 * not wake the delivery worker. The insert, the outbox row and the saved outcome are their own functions, which the
 * other writers (artifact_create, events, refusals) call too, so each exists once.
 * Values come as text inside the jsonb argument; `json` columns are cast from that text,
 * so their stored bytes (key order) are exactly what Cairn serialised.
 */
export const receiptWrite: Migration = {
  version: "0010_receipt_write",
  sql: `
    create function cairn_insert_artifact(a jsonb) returns void language sql as $$
      insert into artifacts (id, owner, title, share_type, body, checksum, tags, metadata, provenance, follows,
                             share_token, created_at, expires_at, details, measure_due_at)
      values (a->>'id', a->>'owner', a->>'title', a->>'share_type', a->>'body', a->>'checksum', a->'tags',
              (a->>'metadata')::json, (a->>'provenance')::json, a->>'follows', a->>'share_token',
              (a->>'created_at')::timestamptz, (a->>'expires_at')::timestamptz, a->>'details',
              (a->>'measure_due_at')::timestamptz)
    $$;

    create function cairn_record_event(e jsonb) returns integer language sql as $$
      with ev as (
        insert into events (id, type, owner, payload, created_at)
        values (e->>'id', e->>'type', e->>'owner', e->>'payload', (e->>'created_at')::timestamptz)
        returning id, type, owner, created_at
      ), queued as (
        insert into deliveries (event_id, subscription_id, state, next_at, created_at)
        select ev.id, s.id, 'pending', ev.created_at, ev.created_at
          from ev join subscriptions s on s.owner = ev.owner
         where s.enabled and (s.events is null or s.events ? ev.type)
        returning 1
      )
      select count(*)::integer from queued
    $$;

    create function cairn_save_outcome(c jsonb) returns void language sql as $$
      delete from idempotency_keys where user_id = c->>'user_id' and created_at <= (c->>'since')::timestamptz;
      insert into idempotency_keys (user_id, key, fingerprint, outcome, created_at)
      values (c->>'user_id', c->>'key', c->>'fingerprint', (c->>'outcome')::json, (c->>'created_at')::timestamptz)
      on conflict (user_id, key) do nothing;
    $$;

    create function cairn_write_receipt(w jsonb) returns jsonb language plpgsql as $$
    declare
      lock_key text;
      a jsonb := w->'artifact';
      c jsonb := nullif(w->'claim', 'null');
      stored jsonb;
      seen record;
      dup record;
      queued integer;
    begin
      for lock_key in select jsonb_array_elements_text(w->'locks') loop
        perform pg_advisory_xact_lock(hashtext(lock_key));
      end loop;

      perform 1 from tokens where id = w->>'token_id' and revoked_at is null;
      if not found then return '{"status":"stale","why":"token"}'; end if;
      if w->>'team' is not null then
        perform 1 from team_members m join teams t on t.id = m.team_id
         where t.name = w->>'team' and m.user_id = w->>'user_id';
        if not found then return '{"status":"stale","why":"team"}'; end if;
      end if;
      if w ? 'policy' then
        select jsonb_build_object('secrets', p.secrets, 'entropy_detection', p.entropy_detection,
                                  'require_evidence', p.require_evidence, 'default_ttl_days', p.default_ttl_days)
          into stored from policies p where p.owner = a->>'owner';
        if coalesce(stored, w->'policy_default') is distinct from w->'policy' then
          return '{"status":"stale","why":"policy"}';
        end if;
      end if;

      if c is not null then
        select i.fingerprint, i.outcome::text as outcome into seen from idempotency_keys i
         where i.user_id = c->>'user_id' and i.key = c->>'key' and i.created_at > (c->>'since')::timestamptz;
        if found then
          return jsonb_build_object('status', 'replay', 'fingerprint', seen.fingerprint, 'outcome', seen.outcome);
        end if;
      end if;

      select x.id, x.share_token into dup from artifacts x
       where x.owner = a->>'owner' and x.checksum = a->>'checksum' and x.metadata is not null
         and x.created_at > (w->>'duplicate_since')::timestamptz and x.follows is not distinct from a->>'follows'
       order by x.created_at desc limit 1;
      if found then
        return jsonb_build_object('status', 'duplicate', 'id', dup.id, 'share_token', dup.share_token);
      end if;

      perform cairn_insert_artifact(a);
      queued := cairn_record_event(w->'event');
      if c is not null then perform cairn_save_outcome(c); end if;
      return jsonb_build_object('status', 'created', 'deliveries', queued);
    end $$;
  `,
};
