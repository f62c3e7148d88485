/**
 * Background jobs: the `@Background` declaration, the `JobQueue` of an application, the worker,
 * and the in-memory store. Postgres and Redis stores live in `@kit/jobs/postgres` and
 * `@kit/jobs/redis`; the store contract suite in `@kit/jobs/testing`.
 *
 * @module
 */
export {
  type Backoff,
  exponentialBackoff,
  type ExponentialBackoffOptions,
} from "./declaration/backoff.ts";
export { Background, type BackgroundOptions } from "./declaration/background.ts";
// The store contract: what a store implements (an extension point), and the helpers a store uses.
export {
  type ClaimedJob,
  type JobClaimParams,
  type JobCompleteManyParams,
  type JobFailParams,
  type JobReportParams,
  type JobStore,
  type NewJob,
  reaches,
  type ReportOutcome,
  type StoredJob,
  type TenantReach,
  toQueuedJob,
} from "./store/job_store.ts";
export {
  activityOf,
  checkJobActivityParams,
  checkJobPageLimit,
  countJobs,
  decodeJobCursor,
  encodeJobCursor,
  InvalidJobCursorError,
  type JobActivityBucket,
  type JobActivityKind,
  jobActivityMaxWindowMs,
  jobActivityMinuteMs,
  type JobActivityParams,
  type JobCountsParams,
  type JobCursor,
  type JobPage,
  jobPageMaxLimit,
  type JobPageParams,
  type JobQueueActivity,
  type JobQueueCounts,
  type JobSearch,
  type JobView,
  matchesJobSearch,
  toJobView,
} from "./store/job_reads.ts";
export {
  appendAttempt,
  attemptHistoryOf,
  type JobAttempt,
  jobAttemptHistoryLimit,
  jobAttemptMessageMaxLength,
  type JobAttemptOutcome,
  truncateAttemptMessage,
} from "./store/job_attempts.ts";
export {
  attemptsExhaustedCode,
  attemptsExhaustedMessage,
  checkWorkerHeartbeat,
  type JobRescueParams,
  type LiveWorker,
  type RescuedJob,
  type WorkerHeartbeatParams,
  type WorkerRegistration,
} from "./store/worker_registry.ts";
export {
  checkJobPruneParams,
  type FinishedJobStatus,
  jobPruneMaxLimit,
  type JobPruneParams,
} from "./store/job_retention.ts";
export { InMemoryJobStore } from "./store/in_memory_job_store.ts";
export { BackgroundJobs, type LostJobHandler } from "./queue/background_jobs.ts";
export {
  JobInterruptedError,
  JobLeaseLostError,
  JobTimeoutError,
  WorkerStoppedError,
} from "./worker/job_errors.ts";
export type { AttemptOutcome, AttemptResult } from "./worker/run_attempt.ts";
export {
  type AttemptListener,
  Worker,
  type WorkerIdentity,
  type WorkerSettings,
} from "./worker/worker.ts";
export { Rescuer } from "./worker/rescuer.ts";
export { type PruneCounts, Pruner } from "./worker/pruner.ts";
export type { JobRetention, JobRetentionRule } from "./worker/retention_policy.ts";
export { type BackgroundJobsApi, jobsPlugin, type JobsPluginOptions } from "./jobs_plugin.ts";
export { JobTelemetry, type JobTelemetryOptions } from "./observability/job_telemetry.ts";
export { Scheduled, type ScheduledOptions, type ScheduledTick } from "./declaration/scheduled.ts";
