/**
 * The kernel of kit, what an application calls: actors and the execution context, commands and
 * queries with their handlers, buses and permissions, domain errors and their codes, tenancy, the
 * unit of work, integration events, the job queue, the clock, the logger, modules and the
 * composition root.
 *
 * Beside it: `@kit/kernel/logging` (a logger or error reporter of one's own),
 * `@kit/kernel/process` (process managers and their store), `@kit/kernel/outbox` (the outbox and
 * its relay), `@kit/kernel/postgres` (PostgreSQL), `@kit/kernel/testing` (the test clock), and
 * `@kit/kernel/types` (the option, result and record types these functions name, for code that
 * writes them out). `@kit/kernel/internal` is for kit's own packages, not for applications.
 *
 * @module
 */
export type { SessionScope, SessionScopes } from "./actor/session.ts";
export { type Actor, hasRole, serviceActor, systemActor, userActor } from "./actor/actor.ts";
export type { ExecutionContext } from "./actor/execution_context.ts";
export type { Session } from "./actor/session.ts";
export {
  type Application,
  type ApplicationOptions,
  composeApplication,
} from "./composition/compose_application.ts";
export { defineModule, type Module } from "./composition/module.ts";
export type { DependencyManifest, Registration } from "./composition/provider.ts";
export { type Injectable, type Token, token } from "./composition/token.ts";
export { InMemoryAggregates } from "./concurrency/in_memory_aggregates.ts";
export { expectSaved, type Versioned } from "./concurrency/versions.ts";
export type { AnyClass } from "./declarations/declaration.ts";
export { ForbiddenError, UnauthorizedError } from "./errors/access_errors.ts";
export { ConceptError, isRefusal } from "./errors/concept_error.ts";
export { DeclaredError, defineErrorCodes, type ErrorCode } from "./errors/error_codes.ts";
export { ErrorReporter } from "./errors/error_reporter.ts";
export {
  ConcurrentUpdateError,
  ServiceUnavailableError,
  TenantRequiredError,
} from "./errors/kernel_refusals.ts";
export { EventPublisher } from "./events/event_publisher.ts";
export { eventsPlugin } from "./events/events_plugin.ts";
export { eventHandlerDeclarations, HandlesEvent } from "./events/handles_event.ts";
export { InMemoryOutbox } from "./events/in_memory_outbox.ts";
export {
  defineIntegrationEvent,
  type EventPayloadOf,
  type IntegrationEvent,
  type IntegrationEventDefinition,
} from "./events/integration_event.ts";
export {
  InMemoryProcessedEvents,
  ProcessedEvents,
  processOnce,
} from "./events/processed_events.ts";
export { checkReadiness, type HealthCheck } from "./health/readiness.ts";
export { shutdownWithin } from "./health/shutdown_deadline.ts";
export { IdempotencyStore } from "./idempotency/idempotency_store.ts";
export { InMemoryIdempotencyStore } from "./idempotency/in_memory_idempotency_store.ts";
export { IdGenerator, uuidv7 } from "./ids/id.ts";
export {
  type BackgroundJobExecution,
  JobQueue,
  type QueuedJobStatus,
  queuedJobStatuses,
} from "./jobs/job_queue.ts";
export { consoleLogger, Logger, type LogLevel } from "./logging/logger.ts";
export { summarisingLogger } from "./logging/summarising_logger.ts";
export {
  AccessPolicy,
  accessPolicy,
  type AccessRequest,
  definePolicy,
  type PermissionPolicy,
  type RoleGrants,
} from "./messaging/access_policy.ts";
export { CommandBus, QueryBus } from "./messaging/buses.ts";
export { type HandlerContext, Handles } from "./messaging/handles.ts";
export { AuthorizedCommand, AuthorizedQuery, Command, Query } from "./messaging/message.ts";
export { definePermissions, type Permission } from "./messaging/permissions.ts";
export { Requires } from "./messaging/requires.ts";
export { RetryOnConflict } from "./messaging/retry_on_conflict.ts";
export { runElevated } from "./tenancy/run_elevated.ts";
export { readableTenants, requireTenant, tenantsReached } from "./tenancy/tenancy.ts";
export { Clock } from "./time/clock.ts";
export type { Duration } from "./time/duration.ts";
export { InMemoryTransactions } from "./unit_of_work/in_memory_transactions.ts";
export { lockFor, TransactionManager } from "./unit_of_work/unit_of_work.ts";
export { currentScope, runInScope } from "./unit_of_work/work_scope.ts";
