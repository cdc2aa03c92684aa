import { shareUrl } from "../artifact/internal.js";
import type { CairnConfig } from "../context.js";
import { defineJob } from "../events/jobs.js";
import { recordEvent } from "../events/outbox.js";
import { ringOutbox } from "../events/wake.js";
import type { Sql, Store } from "../store/port.js";
import { decisionWaiters } from "./waiters.js";

/** Asks handled per transaction, and transactions per run, so one run's work is bounded. */
const BATCH = 100;
const MAX_BATCHES = 20;

interface ExpiredRow {
  id: string;
  title: string;
  owner: string;
  share_token: string;
  at: string;
}

/**
 * One batch, in one transaction: open asks past their answer_by, locked with SKIP LOCKED
 * so another worker takes other rows, marked expired by the same conditional update an
 * answer uses (`decision is null`). Only a row this statement changed is announced, so
 * across processes — and against an answer racing the deadline — the event is written once.
 */
async function expireBatch(tx: Sql, config: CairnConfig, now: Date): Promise<ExpiredRow[]> {
  const rows = await tx.query<ExpiredRow>(
    `with due as (
       select id from artifacts
        where ask is not null and decision is null and answer_by <= $1::timestamptz
        order by answer_by, id limit $2
        for update skip locked)
     update artifacts a
        set decision = jsonb_build_object('state', 'expired', 'at', to_char(a.answer_by at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
       from due where a.id = due.id and a.decision is null
     returning a.id, a.title, a.owner, a.share_token, a.decision->>'at' as at`,
    [now.toISOString(), BATCH],
  );
  for (const row of rows) {
    const data = { id: row.id, title: row.title, url: shareUrl(config, row.share_token), owner: row.owner, at: row.at };
    await recordEvent(tx, { type: "receipt.decision_expired", owner: row.owner, data }, now);
  }
  return rows;
}

/** Marks every ask past its deadline expired and announces each once. Safe with any number of workers. Returns how many. */
export async function expireAsks(store: Store, config: CairnConfig, now: Date): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const rows = await store.transaction((tx) => expireBatch(tx, config, now));
    total += rows.length;
    for (const row of rows) decisionWaiters(store).wake(row.id);
    if (rows.length < BATCH) break;
  }
  if (total > 0) ringOutbox();
  return total;
}

/** The job every worker runs; the registry leases it to one at a time, and the update's condition keeps it once regardless. */
export const expireAsksJob = defineJob({
  name: "decision_expiry",
  everyMs: 15_000,
  run: async ({ store, config, now }) => ({ count: await expireAsks(store, config, now()) }),
});
