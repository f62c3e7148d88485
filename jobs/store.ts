/**
 * For store authors: the records and parameters of the `JobStore` interface and the helpers every
 * store uses to answer the same way (tenancy, attempt history, pages and cursors, the dashboard's
 * counts and activity, the registry of live workers). This is the driver interface, as River
 * documents its own: it follows the stores kit ships, outside semver (a minor release may change
 * it). An application needs none of it: `JobStore` and `InMemoryJobStore` are in `@kit/jobs`.
 *
 * @module
 */
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
  checkJobPruneParams,
  type FinishedJobStatus,
  jobPruneMaxLimit,
  type JobPruneParams,
} from "./store/job_retention.ts";
export {
  type ClaimedJob,
  type JobClaimParams,
  type JobCompleteManyParams,
  type JobFailParams,
  type JobReportParams,
  type NewJob,
  reaches,
  type ReportOutcome,
  type StoredJob,
  type TenantReach,
  toQueuedJob,
} from "./store/job_store.ts";
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
