/**
 * Plumbing between kit's packages (`@kit/http`, `@kit/jobs`, `@kit/drizzle`, `@kit/knex`): the
 * decorator machinery, the status table of the kernel's codes, the composition root a plugin sees,
 * the unit of work a transaction manager opens (the client it opened it on, and the check that a
 * store on another client writes in it only on the same database), the process runtime, the
 * meter, the outbox's and the process store's SQL statements (run by `PostgresOutbox` and
 * `PostgresProcessStore`, and by `@kit/jobs`' `SqlOutbox` and `SqlProcessStore`). Not for
 * applications, and outside semver: any release may change it.
 *
 * @module
 */
export { belongsToTenant } from "./actor/actor.ts";
export { hasScopes } from "./actor/session.ts";
export type {
  ApplicationPlugin,
  CompositionRoot,
  Declared,
} from "./composition/compose_application.ts";
export { Container } from "./composition/container.ts";
export { describeInjectable } from "./composition/token.ts";
export {
  classDecorator,
  type DeclarationKind,
  declarationKind,
  type KitClassDecorator,
} from "./declarations/declaration.ts";
export { isErrorCode, statusOfKind } from "./errors/error_codes.ts";
export { kernelStatusByCode } from "./errors/kernel_refusals.ts";
export { exponentialBackoff, type ExponentialBackoffOptions } from "./jobs/backoff.ts";
export {
  backgroundJobDeclarations,
  backgroundJobDeclarer,
  type BackgroundJobSettings,
} from "./jobs/background_declaration.ts";
export {
  scheduledJobDeclarations,
  scheduledJobDeclarer,
  type ScheduledJobSettings,
} from "./jobs/scheduled_declaration.ts";
export { type Requirement, requirementOf } from "./messaging/requires.ts";
export { kitMeter } from "./metrics/kit_meter.ts";
export { ThrottledRead, type ThrottledReadOptions } from "./metrics/throttled_read.ts";
export {
  endProcessInstance,
  type EndProcessInstanceParams,
} from "./process/end_process_instance.ts";
export {
  type ProcessManagerDeclaration,
  processManagerDeclarations,
} from "./process/process_manager.ts";
export { ProcessRuntime, type ProcessRuntimeOptions } from "./process/process_runtime.ts";
export { processReaches } from "./process/process_reach.ts";
export * as processStatements from "./process/process_statements.ts";
export { processRuntimeOf } from "./process/process_runtimes.ts";
export * as outboxStatements from "./postgres/outbox_statements.ts";
export { type SqlStatement, StatementParams } from "./postgres/sql_statement.ts";
export { defaultTenant } from "./tenancy/tenancy.ts";
export { systemClock } from "./time/clock.ts";
export { toMilliseconds } from "./time/duration.ts";
export type { UnitOfWork } from "./unit_of_work/unit_of_work.ts";
export { recordUnitClient } from "./unit_of_work/unit_client.ts";
export {
  checkUnitDatabase,
  isOnUnitDatabase,
  type UnitDatabaseQuery,
  type UnitDatabaseWriter,
} from "./unit_of_work/unit_database.ts";
export { currentUnitOfWork, type WorkScope } from "./unit_of_work/work_scope.ts";
