import { defineJob } from "../events/jobs.js";
import { followedSql, needsActionSql, unexpiredSql } from "../inbox/rules.js";
import type { Store } from "../store/port.js";
import { ringNotifier } from "./wake.js";

/** Events fanned out per statement. */
export const FANOUT_BATCH = 200;

/** The content every notification about a receipt carries, from the stored row `a` (values already redacted at write). */
export const contentSql = (trigger: string, a: string) => `jsonb_build_object(
  'kind', ${trigger}, 'artifact_id', ${a}.id, 'title', ${a}.title, 'human_action', ${a}.metadata->>'human_action',
  'owner', ${a}.owner, 'provenance', ${a}.provenance::jsonb, 'assignee', ${a}.assignee,
  'measure_at', ${a}.metadata->'outcome'->>'measure_at', 'ask', ${a}.ask)`;

/**
 * Whether the receipt `a` asks a choice that is no longer open: answered, or past its
 * deadline (SPEC §32: reminders of an ask continue until it is answered or expired).
 */
const askSettledSql = (a: string, now: string) =>
  `(${a}.ask is not null and (${a}.decision is not null or (${a}.answer_by is not null and ${a}.answer_by <= ${now}::timestamptz)))`;

/** Whether nobody has acknowledged the receipt `a` yet. */
const unacknowledged = (a: string) => `not exists (select 1 from acknowledgements k where k.artifact_id = ${a}.id)`;

/** A user's switch for a trigger: the stored one, or the default (everything but the digest on). */
const switchedOn = (s: string, trigger: string) => `coalesce(case ${trigger}
  when 'assigned' then ${s}.assigned when 'open_action' then ${s}.open_action when 'overdue' then ${s}.overdue
  when 'reminder' then ${s}.reminder when 'digest' then ${s}.digest when 'decided' then ${s}.decided end,
  ${trigger} not in ${OFF_BY_DEFAULT})`;

/** The triggers a person hears only once they turn them on. */
const OFF_BY_DEFAULT = "('digest', 'decided')";

/**
 * Fans out events not yet fanned out (ADR 0055), in one statement: it locks a batch of
 * their ids in `fanout_queue` (SKIP LOCKED, so processes take different batches), deletes
 * them (ADR 0062: the event itself is never written again), and queues one
 * notification per active channel of every person a trigger names —
 * `open_action` for a new open action with nobody assigned (each user acting for the owner),
 * `assigned` for an assignment that still stands on an unacknowledged open action, and
 * `overdue` for `receipt.measure_due` (the owner's users and the assignee). The unique
 * key (channel, trigger:receipt, and for `assigned` the assignment's event: SPEC §37, a
 * receipt assigned back notifies again) makes a second fan-out of the same event — after
 * a kill -9, or by a racing process — queue nothing. It also records when an artifact was
 * assigned, which reminders count from. Returns how many events it took.
 */
export async function fanOut(store: Store, now: Date): Promise<number> {
  const [row] = await store.query<{ events: number; queued: number }>(
    `with taken as (
       select q.event_id from fanout_queue q order by q.event_id limit $2 for update skip locked
     ), marked as (
       delete from fanout_queue q using taken where q.event_id = taken.event_id returning 1
     ), ev as (
       select e.id, e.type, e.owner, e.created_at, (e.payload::jsonb)->'data' as data from taken join events e on e.id = taken.event_id
     ), art as (
       select ev.id as event_id, ev.type, ev.created_at as event_at, ev.data, a.*
         from ev join artifacts a on a.id = ev.data->>'id'
        where ev.type in ('artifact.created', 'artifact.assigned', 'receipt.measure_due', 'receipt.decided')
     ), assigned_at as (
       insert into notify_assignments (artifact_id, assignee, assigned_at, event_id, reminded)
       select distinct on (art.id) art.id, art.data->>'assignee', art.event_at, art.event_id, 0 from art where art.type = 'artifact.assigned'
        order by art.id, art.event_at desc, art.event_id desc
       on conflict (artifact_id) do update set assignee = excluded.assignee, assigned_at = excluded.assigned_at,
              event_id = excluded.event_id, reminded = 0
        where notify_assignments.assigned_at <= excluded.assigned_at
       returning 1
     ), members as (
       select art.event_id, u.id as user_id from art join users u on art.owner = 'user:' || u.name
       union
       select art.event_id, m.user_id from art join teams t on art.owner = 'team:' || t.name join team_members m on m.team_id = t.id
     ), cand as (
       select 'open_action' as trigger, art.id as artifact_id, mb.user_id, '' as assignment
         from art join members mb on mb.event_id = art.event_id
        where art.type = 'artifact.created' and art.assignee is null and ${needsActionSql("art")} and ${unacknowledged("art")}
       union
       select 'assigned', art.id, u.id, ':' || art.event_id from art join users u on u.name = art.data->>'assignee'
        where art.type = 'artifact.assigned' and art.assignee = u.name and ${needsActionSql("art")} and ${unacknowledged("art")}
          and not exists (select 1 from art later where later.id = art.id and later.type = 'artifact.assigned'
                            and (later.event_at, later.event_id) > (art.event_at, art.event_id))
       union
       select 'overdue', art.id, mb.user_id, '' from art join members mb on mb.event_id = art.event_id
        where art.type = 'receipt.measure_due'
       union
       select 'overdue', art.id, u.id, '' from art join users u on u.name = art.assignee where art.type = 'receipt.measure_due'
       union
       select 'decided', art.id, mb.user_id, '' from art join members mb on mb.event_id = art.event_id
         join users u on u.id = mb.user_id
        where art.type = 'receipt.decided' and u.name <> art.data->'by'->>'user'
     ), queued as (
       insert into notifications (id, channel_id, dedupe_key, trigger, artifact_id, content, state, next_at, created_at)
       select 'ntf_' || replace(gen_random_uuid()::text, '-', ''), c.id, cand.trigger || ':' || a.id || cand.assignment, cand.trigger, a.id,
              ${contentSql("cand.trigger", "a")} || jsonb_build_object('decision', a.decision), 'pending', $1, $1
         from cand join artifacts a on a.id = cand.artifact_id
         join channels c on c.user_id = cand.user_id and c.state = 'active'
         left join notify_settings s on s.user_id = cand.user_id
        where ${switchedOn("s", "cand.trigger")}
       on conflict (channel_id, dedupe_key) do nothing
       returning 1
     )
     select (select count(*)::int from marked) as events, (select count(*)::int from queued) as queued`,
    [now.toISOString(), FANOUT_BATCH],
  );
  if ((row?.queued ?? 0) > 0) ringNotifier();
  return row?.events ?? 0;
}

/**
 * Reminders (SPEC §27): an open action assigned to a person with the trigger on, still
 * unacknowledged, not followed and not expired, gets reminder k (1–3) once
 * `k × remind_after` has passed since it was assigned to them. Acknowledging, reassigning
 * or a follow-up removes it from this query, so nothing more is queued. The assignment
 * counts the reminders queued for it (`reminded`), so a pruned notification is never
 * queued again; the key `reminder:<id>:<assignment>:<k>` holds it to once per channel.
 */
export async function queueReminders(store: Store, now: Date): Promise<number> {
  const rows = await store.query<{ id: string }>(
    `with reached as (
       select a.id as artifact_id, u.id as user_id, na.event_id, na.reminded,
              least(3, floor(extract(epoch from ($1::timestamptz - na.assigned_at)) / coalesce(s.remind_after, 86400)))::int as k
         from artifacts a join users u on u.name = a.assignee
         join notify_assignments na on na.artifact_id = a.id and na.assignee = a.assignee
         left join notify_settings s on s.user_id = u.id
        where a.assignee is not null and ${needsActionSql("a")} and ${unacknowledged("a")}
          and not ${followedSql("a")} and ${unexpiredSql("a", "$1")}
          and not ${askSettledSql("a", "$1")}
          and ${switchedOn("s", "'reminder'")}
          and exists (select 1 from channels c where c.user_id = u.id and c.state = 'active')
     ), due as (
       select * from reached where k >= 1 and k > reminded
     ), counted as (
       update notify_assignments na set reminded = due.k from due where na.artifact_id = due.artifact_id and na.reminded < due.k
     )
     insert into notifications (id, channel_id, dedupe_key, trigger, artifact_id, content, state, next_at, created_at)
     select 'ntf_' || replace(gen_random_uuid()::text, '-', ''), c.id,
            'reminder:' || a.id || coalesce(':' || due.event_id, '') || ':' || due.k, 'reminder', a.id,
            ${contentSql("'reminder'", "a")} || jsonb_build_object('reminder', due.k), 'pending', $1, $1
       from due join artifacts a on a.id = due.artifact_id join channels c on c.user_id = due.user_id and c.state = 'active'
     on conflict (channel_id, dedupe_key) do nothing
     returning id`,
    [now.toISOString()],
  );
  if (rows.length > 0) ringNotifier();
  return rows.length;
}

export const remindersJob = defineJob({
  name: "notify_reminders",
  everyMs: 15_000,
  run: async ({ store, now }) => ({ count: await queueReminders(store, now()) }),
});
