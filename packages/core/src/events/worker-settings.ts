import { DEFAULT_SCHEDULE, type RetrySchedule } from "./schedule.js";

/** The schedule a process runs with: the default, with the operator's tuning (SPEC §10 delays unless overridden). */
export function scheduleFrom(settings: { webhookRetryDelaysMs?: number[] | undefined; webhookLeaseMs?: number | undefined }): RetrySchedule {
  return {
    ...DEFAULT_SCHEDULE,
    ...(settings.webhookRetryDelaysMs && { delays: settings.webhookRetryDelaysMs }),
    ...(settings.webhookLeaseMs !== undefined && { leaseMs: settings.webhookLeaseMs }),
  };
}
