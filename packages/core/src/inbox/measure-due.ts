import { shareUrl } from "../artifact/internal.js";
import type { CairnConfig } from "../context.js";
import { defineJob } from "../events/jobs.js";
import { recordEvent } from "../events/outbox.js";
import type { Sql, Store } from "../store/port.js";
import { dueAtSql, isPendingSql, outcomeStateSql, unexpiredSql } from "./rules.js";

/** Receipts handled per transaction, and transactions per run, so one run's work is bounded. */
const BATCH = 100;
const MAX_BATCHES = 20;

interface DueRow {
  id: string;
  title: string;
  owner: string;
  share_token: string;
  measure_at: string;
}

/**
 * One batch, in one transaction: overdue receipts (the one rule) that have no notice yet,
 * locked with SKIP LOCKED so another worker takes other rows. The notice's primary key
 * decides "once": a receipt whose notice another worker already committed is skipped by
 * the query or by `on conflict do nothing`, and then no event is written.
 */
async function emitBatch(tx: Sql, config: CairnConfig, now: Date): Promise<{ seen: number; emitted: number }> {
  const rows = await tx.query<DueRow>(
    `select a.id, a.title, a.owner, a.share_token, a.metadata->'outcome'->>'measure_at' as measure_at
       from artifacts a
      where ${isPendingSql("a")} and ${dueAtSql("a")} <= $1::timestamptz and ${unexpiredSql("a", "$1")}
        and ${outcomeStateSql("a", "$1")} = 'overdue'
        and not exists (select 1 from measure_due_notices n where n.artifact_id = a.id)
      order by ${dueAtSql("a")}, a.id
      limit $2
      for update of a skip locked`,
    [now.toISOString(), BATCH],
  );
  if (rows.length === 0) return { seen: 0, emitted: 0 };
  const won = await tx.query<{ artifact_id: string }>(
    `insert into measure_due_notices (artifact_id, owner, measure_at, emitted_at)
     select r.id, r.owner, r.measure_at, $2 from jsonb_to_recordset($1::jsonb) as r(id text, owner text, measure_at text)
     on conflict (artifact_id) do nothing returning artifact_id`,
    [JSON.stringify(rows.map(({ id, owner, measure_at }) => ({ id, owner, measure_at }))), now.toISOString()],
  );
  const announced = new Set(won.map((w) => w.artifact_id));
  for (const row of rows) {
    if (!announced.has(row.id)) continue;
    await recordEvent(
      tx,
      {
        type: "receipt.measure_due",
        owner: row.owner,
        data: { id: row.id, title: row.title, url: shareUrl(config, row.share_token), owner: row.owner, measure_at: row.measure_at },
      },
      now,
    );
  }
  return { seen: rows.length, emitted: announced.size };
}

/**
 * The `measure_due` scheduled job: announces `receipt.measure_due` once per receipt whose
 * pending outcome has come due with nothing following it — including receipts created
 * with a `measure_at` already past. Safe with any number of workers. Returns how many it
 * announced.
 */
export async function emitMeasureDue(store: Store, config: CairnConfig, now: Date): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const { seen, emitted } = await store.transaction((tx) => emitBatch(tx, config, now));
    total += emitted;
    if (seen < BATCH) break;
  }
  return total;
}

/** The job every worker runs (`cairn serve`, `cairn worker`); the registry leases it to one at a time. */
export const measureDueJob = defineJob({
  name: "measure_due",
  everyMs: 30_000,
  run: async ({ store, config, now }) => ({ count: await emitMeasureDue(store, config, now()) }),
});
