/**
 * The types `@kit/kernel`'s functions name in their signatures (options, results, records, the
 * messages' base class, the module builder, the job queue's payloads and results), for code that
 * writes them out; the root's functions infer them.
 *
 * @module
 */
export type { ActorKind, ActorOptions, JsonValue } from "./actor/actor.ts";
export type { ExecutionOrigin } from "./actor/execution_context.ts";
export { type Dependencies, ModuleBuilder, type ModuleOptions } from "./composition/module.ts";
export type {
  ClassProvider,
  FactoryProvider,
  Provider,
  ValueProvider,
} from "./composition/provider.ts";
export type { InMemoryAggregatesOptions } from "./concurrency/in_memory_aggregates.ts";
export type { ConceptErrorKind } from "./errors/concept_error.ts";
export type { ErrorCodeOptions, ErrorCodes } from "./errors/error_codes.ts";
export type { ServiceUnavailableOptions } from "./errors/kernel_refusals.ts";
export type { HealthCheckResult, ReadinessOptions, ReadinessReport } from "./health/readiness.ts";
export type { ShutdownDeadlineOptions } from "./health/shutdown_deadline.ts";
export type {
  IdempotencyClaim,
  IdempotencyKeyParams,
  KeptAnswer,
} from "./idempotency/idempotency_store.ts";
export type { Backoff } from "./jobs/backoff.ts";
export type { BackgroundOptions } from "./jobs/background_declaration.ts";
export type { ScheduledOptions, ScheduledTick } from "./jobs/scheduled_declaration.ts";
export type {
  BackgroundJobClass,
  EnqueueOptions,
  EnqueuePayload,
  EnqueueResult,
  JobPayloadOf,
  JsonSafe,
  QueuedJob,
} from "./jobs/job_queue.ts";
export { Message, type MessageClass, type ResultOf } from "./messaging/message.ts";
export type { PermissionSet } from "./messaging/permissions.ts";
export type { Resource } from "./messaging/requires.ts";
export type { MetricsOptions } from "./metrics/kit_meter.ts";
export type { Elevation, ElevationRecord } from "./tenancy/run_elevated.ts";
export type { TenantsReached } from "./tenancy/tenancy.ts";
