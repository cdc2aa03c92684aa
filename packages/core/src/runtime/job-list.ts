import { searchStatisticsJob } from "../artifact/search-statistics.js";
import { expireAsksJob } from "../decision/expire-job.js";
import type { Job } from "../events/jobs.js";
import { pruneEventsJob } from "../events/prune.js";
import { measureDueJob } from "../inbox/measure-due.js";
import { digestJob } from "../notify/digest.js";
import { remindersJob } from "../notify/fanout.js";
import { pruneNotificationsJob } from "../notify/prune.js";
import { expirySweepJob } from "./sweep-job.js";

/**
 * The scheduled jobs every worker runs (`cairn serve` and `cairn worker`). Add one line
 * per job; each job lives in its own area's module.
 */
export const JOBS: readonly Job[] = [
  pruneEventsJob,
  measureDueJob,
  expirySweepJob,
  searchStatisticsJob,
  remindersJob,
  digestJob,
  pruneNotificationsJob,
  expireAsksJob,
];
