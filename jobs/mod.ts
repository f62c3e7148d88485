/**
 * Background jobs: the `@Background` declaration, the `JobQueue` of an application, the worker,
 * and the in-memory store. Postgres and Redis stores live in `@kit/jobs/postgres` and
 * `@kit/jobs/redis`; the store contract suite in `@kit/jobs/testing`.
 *
 * @module
 */
export * from "./declaration/backoff.ts";
export * from "./declaration/background.ts";
export * from "./store/job_store.ts";
export * from "./store/job_reads.ts";
export * from "./store/in_memory_job_store.ts";
export * from "./queue/background_jobs.ts";
export * from "./worker/job_errors.ts";
export * from "./worker/run_attempt.ts";
export * from "./worker/worker.ts";
export * from "./jobs_plugin.ts";
export * from "./observability/job_telemetry.ts";
export * from "./declaration/scheduled.ts";
export * from "./worker/scheduler.ts";
