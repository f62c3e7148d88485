/**
 * Background jobs: the `@Background` and `@Scheduled` declarations, the jobs plugin with its queue
 * and worker, and the in-memory store. Postgres and Redis stores live in `@kit/jobs/postgres` and
 * `@kit/jobs/redis`; the store contract suite in `@kit/jobs/testing`; what a store author needs
 * beside `JobStore` in `@kit/jobs/store`.
 *
 * @module
 */
export { Background, type BackgroundOptions } from "./declaration/background.ts";
export {
  type Backoff,
  exponentialBackoff,
  type ExponentialBackoffOptions,
} from "./declaration/backoff.ts";
export { Scheduled, type ScheduledOptions, type ScheduledTick } from "./declaration/scheduled.ts";
export { type BackgroundJobsApi, jobsPlugin, type JobsPluginOptions } from "./jobs_plugin.ts";
export { JobTelemetry, type JobTelemetryOptions } from "./observability/job_telemetry.ts";
export { BackgroundJobs, type LostJobHandler } from "./queue/background_jobs.ts";
export { ContextRoutedJobStore } from "./store/context_routed_job_store.ts";
export type { ContextRoutedJobStoreOptions } from "./store/context_routed_job_store.ts";
export { InMemoryJobStore } from "./store/in_memory_job_store.ts";
export type { JobStore } from "./store/job_store.ts";
export {
  JobInterruptedError,
  JobLeaseLostError,
  JobTimeoutError,
  WorkerStoppedError,
} from "./worker/job_errors.ts";
export { Rescuer } from "./worker/rescuer.ts";
export { type PruneCounts, Pruner } from "./worker/pruner.ts";
export type { JobRetention, JobRetentionRule } from "./worker/retention_policy.ts";
export type { AttemptOutcome, AttemptResult } from "./worker/run_attempt.ts";
export {
  type AttemptListener,
  Worker,
  type WorkerIdentity,
  type WorkerSettings,
} from "./worker/worker.ts";
