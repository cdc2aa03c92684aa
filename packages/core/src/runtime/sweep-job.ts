import { defineJob } from "../events/jobs.js";
import { sweepExpired } from "../lifecycle/sweep.js";
import { sweepExpiredRuns } from "../lifecycle/sweep-runs.js";

/**
 * The expiry sweeper (artifacts, then runs) as a scheduled job: every worker process runs it, the job lease lets
 * one at a time, and its batches skip rows another sweeper holds, so overlapping runs
 * (a lease taken over mid-run) still delete each artifact once.
 */
export const expirySweepJob = defineJob({
  name: "artifacts.expiry_sweep",
  everyMs: 5 * 60_000,
  async run({ store, now, signal }) {
    const { purged } = await sweepExpired(store, now(), { signal });
    // Runs after receipts: a run kept only by a receipt that just expired goes in the same pass.
    const runs = await sweepExpiredRuns(store, now(), { signal });
    return { count: purged + runs.purged };
  },
});
