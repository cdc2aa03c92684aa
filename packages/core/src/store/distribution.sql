-- How Cairn's tables would be laid out on Citus (SPEC §35, ADR 0039, ADR 0085): every table
-- is either distributed by `owner`, co-located with `artifacts`, or a reference table copied to
-- every node. Run on the coordinator, after `create extension citus` and the migrations, in
-- this order (reference tables first: distributed tables' foreign keys may point at them).
-- docs/scaling.md gives the whole migration, step by step.
--
-- Not run by Cairn, and not runnable yet: the tables marked "needs owner" below reach their
-- owner only through a parent's id, and Citus refuses a distributed table whose primary key,
-- unique constraints and foreign keys to other distributed tables do not include the
-- distribution column. `distribution.test.ts` reads this file and the live catalog: every
-- table must be listed here, and the rules' breaches must be exactly the ones listed in
-- KNOWN_BREACHES there, so the schema can only move closer to what Citus accepts.

-- Identity and server-wide state: small, read on every request, rarely written.
select create_reference_table('users');
select create_reference_table('tokens');
select create_reference_table('sessions');
select create_reference_table('signin_links');
select create_reference_table('teams');
select create_reference_table('team_members');
select create_reference_table('team_invitations');
select create_reference_table('team_blocks');
select create_reference_table('oauth_clients');
select create_reference_table('oauth_codes');
select create_reference_table('oauth_refresh_tokens');
select create_reference_table('signing_keys');
select create_reference_table('job_runs');
select create_reference_table('expiry_sweeps');
select create_reference_table('schema_migrations');
select create_reference_table('schema_functions');
-- A person's notification settings and channels: per user, not per owner, and small.
select create_reference_table('notify_settings');
select create_reference_table('feed_keys');
select create_reference_table('channels');
-- How many confirmation mails an address got this hour: keyed by the address, never by owner.
select create_reference_table('confirm_mails');
-- Per user across owners (ADR 0039: a user's key is one namespace whichever owner it writes for).
select create_reference_table('idempotency_keys');

-- An owner's data, one owner's rows on one node.
select create_distributed_table('artifacts', 'owner');
select create_distributed_table('policies', 'owner', colocate_with => 'artifacts');
select create_distributed_table('drops', 'owner', colocate_with => 'artifacts');
select create_distributed_table('runs', 'owner', colocate_with => 'artifacts');
select create_distributed_table('spans', 'owner', colocate_with => 'artifacts');            -- needs owner
select create_distributed_table('span_resources', 'owner', colocate_with => 'artifacts');
select create_distributed_table('produced_edges', 'owner', colocate_with => 'artifacts');   -- needs owner
select create_distributed_table('trace_links', 'owner', colocate_with => 'artifacts');
select create_distributed_table('subscriptions', 'owner', colocate_with => 'artifacts');
select create_distributed_table('events', 'owner', colocate_with => 'artifacts');
select create_distributed_table('fanout_queue', 'owner', colocate_with => 'artifacts');     -- needs owner
select create_distributed_table('deliveries', 'owner', colocate_with => 'artifacts');       -- needs owner
select create_distributed_table('delivery_attempts', 'owner', colocate_with => 'artifacts'); -- needs owner
select create_distributed_table('measure_due_notices', 'owner', colocate_with => 'artifacts');
select create_distributed_table('acknowledgements', 'owner', colocate_with => 'artifacts'); -- needs owner
select create_distributed_table('comments', 'owner', colocate_with => 'artifacts');         -- needs owner
select create_distributed_table('notify_assignments', 'owner', colocate_with => 'artifacts'); -- needs owner
select create_distributed_table('notifications', 'owner', colocate_with => 'artifacts');    -- needs owner
select create_distributed_table('notification_attempts', 'owner', colocate_with => 'artifacts'); -- needs owner
