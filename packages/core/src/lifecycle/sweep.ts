import type { Store } from "../store/port.js";

export interface SweepOptions {
  /** Artifacts deleted per transaction: bounds lock time and WAL per step. */
  batchSize?: number;
  /** Batches per run: bounds one run's work; the next run picks up the rest. */
  maxBatches?: number;
  /** Stops between batches when it fires (shutdown). */
  signal?: AbortSignal;
}

export interface SweepResult {
  purged: number;
  batches: number;
}

export interface SweepReport {
  last_run_at: string;
  last_purged: number;
  total_purged: number;
}

/**
 * The expiry sweeper (SPEC §16): deletes expired, unretained artifacts in bounded batches.
 * Each batch locks its rows with `FOR UPDATE SKIP LOCKED`, so any number of processes can
 * sweep at once without waiting on or double-deleting each other's rows; a retain that
 * commits first keeps its artifact (the row no longer matches), one that comes after the
 * delete finds it gone. Edges go with the artifact: produced_edges cascade on delete.
 */
export async function sweepExpired(store: Store, now: Date, options: SweepOptions = {}): Promise<SweepResult> {
  const batchSize = options.batchSize ?? 500;
  const maxBatches = options.maxBatches ?? 20;
  let purged = 0;
  let batches = 0;
  while (batches < maxBatches && !options.signal?.aborted) {
    const deleted = await store.transaction(async (tx) => {
      const rows = await tx.query<{ id: string }>(
        `delete from artifacts where id in (
           select id from artifacts
            where not retained and expires_at <= $1::timestamptz
            order by expires_at
            limit $2
            for update skip locked)
         returning id`,
        [now.toISOString(), batchSize],
      );
      return rows.length;
    });
    batches++;
    purged += deleted;
    if (deleted < batchSize) break;
  }
  await store.query(
    `insert into expiry_sweeps (id, last_run_at, last_purged, total_purged) values (1, $1, $2::integer, $2::integer)
     on conflict (id) do update set last_run_at = excluded.last_run_at, last_purged = excluded.last_purged,
                                    total_purged = expiry_sweeps.total_purged + excluded.last_purged`,
    [now.toISOString(), purged],
  );
  return { purged, batches };
}

/** What the sweeper last did, for doctor's Database check; null before its first run. */
export async function lastSweep(store: Pick<Store, "query">): Promise<SweepReport | null> {
  const [row] = await store.query<{ last_run_at: Date | string; last_purged: number; total_purged: number | string }>(
    "select last_run_at, last_purged, total_purged from expiry_sweeps where id = 1",
  );
  if (!row) return null;
  return {
    last_run_at: new Date(row.last_run_at).toISOString(),
    last_purged: Number(row.last_purged),
    total_purged: Number(row.total_purged),
  };
}
