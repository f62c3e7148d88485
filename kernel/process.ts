/**
 * Process managers: `@ProcessManager` with `onEvent` declares one (its context, transitions and
 * deadlines); its instances are kept by a `ProcessStore` (`InMemoryProcessStore` here,
 * `PostgresProcessStore` in `@kit/kernel/postgres`), an extension point whose records and
 * parameters are the types below; a store passes `processManagerContract` of `@kit/jobs/testing`.
 *
 * @module
 */
export { InMemoryProcessStore } from "./process/in_memory_process_store.ts";
export type {
  PendingDeadline,
  ProcessCompletion,
  ProcessContext,
  ProcessDeadline,
} from "./process/process_context.ts";
export { ProcessDeadlines, type ScheduledDeadline } from "./process/process_deadlines.ts";
export { ProcessStateInvalidError } from "./process/process_errors.ts";
export {
  onEvent,
  type ProcessEventEntry,
  ProcessManager,
  type ProcessManagerOptions,
  type ProcessTransitions,
} from "./process/process_manager.ts";
export {
  type ProcessInstance,
  type ProcessInstanceCounts,
  type ProcessInstanceEndParams,
  type ProcessInstanceListParams,
  type ProcessInstancePage,
  type ProcessInstanceRef,
  type ProcessInstanceSaveParams,
  type ProcessInstanceStatus,
  processInstanceStatuses,
  type ProcessMessage,
  type ProcessMessageKind,
  type ProcessMessageMarkParams,
  processPageMaxLimit,
  type ProcessPurgeParams,
  type ProcessReach,
  ProcessStore,
  type ProcessStoreUnit,
} from "./process/process_store.ts";
