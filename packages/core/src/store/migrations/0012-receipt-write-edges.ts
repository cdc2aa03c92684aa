import type { Migration } from "./types.js";

/**
 * The receipt write at its edges (ADR 0028). `cairn_write_receipt` as in 0010, and:
 *
 * - It runs under read committed only. Its duplicate and idempotency checks rely on each
 *   statement seeing what a writer that held the lock before it committed; under
 *   repeatable read or serializable the snapshot is the transaction's first, taken before
 *   the locks were granted, and identical concurrent submissions were stored twice. A
 *   call under another level raises SQLSTATE CA001 and stores nothing; the caller then
 *   runs the same call inside a transaction begun as read committed.
 * - An artifact whose life has ended (expired and not retained) is never a duplicate.
 * - `follows` is checked here, under the locks: the target must be a live receipt of the
 *   same owner, and it is locked `for share`, so an expiry sweep cannot delete it between
 *   the check and the commit.
 *
 * The other writers' functions (cairn_insert_artifact, cairn_record_event,
 * cairn_save_outcome) are unchanged.
 */
export const receiptWriteEdges: Migration = {
  version: "0012_receipt_write_edges",
  sql: `
    create or replace function cairn_write_receipt(w jsonb) returns jsonb language plpgsql as $$
    declare
      lock_key text;
      a jsonb := w->'artifact';
      c jsonb := nullif(w->'claim', 'null');
      at_time timestamptz := (w->>'now')::timestamptz;
      stored jsonb;
      seen record;
      dup record;
      queued integer;
    begin
      if current_setting('transaction_isolation') <> 'read committed' then
        raise exception 'cairn_write_receipt runs under read committed, not %', current_setting('transaction_isolation')
          using errcode = 'CA001';
      end if;

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

      if a->>'follows' is not null then
        perform 1 from artifacts f
         where f.id = a->>'follows' and f.owner = a->>'owner' and f.metadata->>'schema' = w->>'receipt_schema'
           and (f.retained or f.expires_at is null or f.expires_at > at_time)
           for share;
        if not found then return '{"status":"foreign-link"}'; end if;
      end if;

      select x.id, x.share_token into dup from artifacts x
       where x.owner = a->>'owner' and x.checksum = a->>'checksum' and x.metadata is not null
         and x.created_at > (w->>'duplicate_since')::timestamptz and x.follows is not distinct from a->>'follows'
         and (x.retained or x.expires_at is null or x.expires_at > at_time)
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
