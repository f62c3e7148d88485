/**
 * The kernel of kit: actors and execution context, commands and queries with their buses and
 * permissions, domain errors, the unit of work, the clock, modules and the composition root.
 *
 * @module
 */
export * from "./actor/actor.ts";
export * from "./actor/session.ts";
export * from "./actor/execution_context.ts";
export {
  defaultTenant,
  readableTenants,
  requireTenant,
  type TenantsReached,
  tenantsReached,
} from "./tenancy/tenancy.ts";
export * from "./tenancy/run_elevated.ts";
export * from "./errors/concept_error.ts";
export * from "./errors/access_errors.ts";
export {
  ConcurrentUpdateError,
  kernelStatusByCode,
  ServiceUnavailableError,
  type ServiceUnavailableOptions,
  TenantRequiredError,
} from "./errors/kernel_refusals.ts";
export * from "./errors/error_codes.ts";
export { type ErrorReport, ErrorReporter, loggingErrorReporter } from "./errors/error_reporter.ts";
export { type KnownFailure, knownFailure } from "./errors/known_failure.ts";
export * from "./health/readiness.ts";
export * from "./health/shutdown_deadline.ts";
export * from "./time/clock.ts";
export * from "./time/test_clock.ts";
export * from "./time/duration.ts";
export { IdGenerator, uuidv7 } from "./ids/id.ts";
export {
  type AnyClass,
  classDecorator,
  type DeclarationKind,
  declarationKind,
  type KitClassDecorator,
} from "./declarations/declaration.ts";
export * from "./composition/token.ts";
export * from "./composition/provider.ts";
export * from "./composition/container.ts";
export * from "./composition/module.ts";
export * from "./composition/compose_application.ts";
export * from "./messaging/message.ts";
export * from "./messaging/permissions.ts";
export { type Requirement, requirementOf, Requires, type Resource } from "./messaging/requires.ts";
export { RetryOnConflict } from "./messaging/retry_on_conflict.ts";
export * from "./messaging/access_policy.ts";
export { type HandlerContext, Handles } from "./messaging/handles.ts";
export * from "./messaging/buses.ts";
export * from "./unit_of_work/unit_of_work.ts";
export * from "./unit_of_work/in_memory_transactions.ts";
export * from "./unit_of_work/work_scope.ts";
export * from "./concurrency/versions.ts";
export * from "./concurrency/in_memory_aggregates.ts";
export * from "./idempotency/idempotency_store.ts";
export * from "./idempotency/in_memory_idempotency_store.ts";
export * from "./events/integration_event.ts";
export * from "./events/outbox.ts";
export * from "./events/in_memory_outbox.ts";
export * from "./events/handles_event.ts";
export * from "./events/processed_events.ts";
export { EventPublisher } from "./events/event_publisher.ts";
export * from "./events/event_relay.ts";
export * from "./events/events_plugin.ts";
export * from "./jobs/job_queue.ts";
export {
  onEvent,
  type ProcessEventEntry,
  ProcessManager,
  type ProcessManagerDeclaration,
  processManagerDeclarations,
  type ProcessManagerOptions,
  type ProcessTransitions,
} from "./process/process_manager.ts";
export {
  type PendingDeadline,
  type ProcessCompletion,
  type ProcessContext,
  type ProcessDeadline,
} from "./process/process_context.ts";
export * from "./process/process_store.ts";
export * from "./process/in_memory_process_store.ts";
export * from "./process/end_process_instance.ts";
export * from "./process/process_deadlines.ts";
export * from "./process/process_errors.ts";
export { ProcessRuntime, type ProcessRuntimeOptions } from "./process/process_runtime.ts";
export { processRuntimeOf } from "./process/process_runtimes.ts";
export * from "./logging/logger.ts";
export * from "./logging/summarising_logger.ts";
export * from "./metrics/kit_meter.ts";
export * from "./metrics/throttled_read.ts";
export type { OutboxGaugesSettings } from "./events/outbox_gauges.ts";
