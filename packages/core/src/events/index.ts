export { artifactCreatedData, recordArtifactCreated } from "./artifact-event.js";
export { JOBS } from "./job-list.js";
export { defineJob, type Job, type JobContext, type JobRun, readJobRuns, runDueJobs } from "./jobs.js";
export { eventPayload, recordEvent } from "./outbox.js";
export { EVENT_RETENTION_DAYS } from "./prune.js";
export * from "./schemas.js";
export { onOutboxRing, ringOutbox } from "./wake.js";
