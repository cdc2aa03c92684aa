import type { Store } from "../store/port.js";
import type { SweepOptions } from "./sweep.js";

export interface RunSweepResult {
  /** Runs deleted: expired, and no live receipt names them. */
  purged: number;
  /** Runs kept because a live receipt names them, their expiry moved to that receipt's. */
  extended: number;
}

/**
 * Runs expire under their owner's TTL (SPEC §28, ADR 0046): a batch takes runs whose
 * `expires_at` has passed (`FOR UPDATE SKIP LOCKED`, so sweepers in several processes
 * never wait on or double-delete each other's rows). A run that a live receipt names — by
 * a span (produced_edges) or by its traceparent (trace_links) — is kept and its expiry
 * moved to the latest such receipt's (a retained receipt: one more owner TTL from now);
 * the others go with their spans, produced edges and trace links, as run_delete does.
 */
export async function sweepExpiredRuns(store: Store, now: Date, options: SweepOptions = {}): Promise<RunSweepResult> {
  const batchSize = options.batchSize ?? 500;
  const maxBatches = options.maxBatches ?? 20;
  const result: RunSweepResult = { purged: 0, extended: 0 };
  for (let batches = 0; batches < maxBatches && !options.signal?.aborted; batches++) {
    const [step] = await store.transaction((tx) =>
      tx.query<{ due: number; purged: number; extended: number }>(
        `with due as (
           select r.id, r.owner, r.trace_id from runs r
            where r.expires_at <= $1::timestamptz
            order by r.expires_at
            limit $2
            for update skip locked
         ), keep as (
           select d.id,
                  max(case when l.retained then $1::timestamptz + make_interval(days => coalesce(p.default_ttl_days, 7))
                           else l.expires_at end) as until
             from due d
             join lateral (
               select a.retained, a.expires_at from produced_edges e join artifacts a on a.id = e.artifact_id where e.run_id = d.id
               union all
               select a.retained, a.expires_at from trace_links t join artifacts a on a.id = t.artifact_id
                where d.trace_id is not null and t.owner = d.owner and t.trace_id = d.trace_id
             ) l on l.retained or l.expires_at > $1::timestamptz
             left join policies p on p.owner = d.owner
            group by d.id
         ), extended as (
           update runs r set expires_at = k.until from keep k where r.id = k.id returning r.id
         ), gone_links as (
           delete from trace_links t using due d
            where d.trace_id is not null and t.owner = d.owner and t.trace_id = d.trace_id
              and not exists (select 1 from keep k where k.id = d.id)
           returning t.artifact_id
         ), gone as (
           delete from runs r using due d
            where r.id = d.id and not exists (select 1 from keep k where k.id = d.id)
           returning r.id
         )
         select (select count(*) from due)::int as due, (select count(*) from gone)::int as purged,
                (select count(*) from extended)::int as extended, (select count(*) from gone_links)::int as links`,
        [now.toISOString(), batchSize],
      ),
    );
    result.purged += step?.purged ?? 0;
    result.extended += step?.extended ?? 0;
    if ((step?.due ?? 0) < batchSize) break;
  }
  return result;
}
