/**
 * kit on Drizzle (PostgreSQL): `DrizzleJobStore`, whose jobs are written in the use case's Drizzle
 * transaction; `DrizzleTransactions`, the kernel's unit of work on Drizzle; `DrizzleOutbox` and
 * `DrizzleProcessedEvents`, whose events are written in that transaction too, and
 * `DrizzleProcessStore`, whose process instances are; `jobsTable` and `jobWorkersTable` for the
 * project's Drizzle schema, `createJobTables`, `createKernelTables` and `createProcessTables`.
 *
 * @module
 */
export { DrizzleJobStore } from "./drizzle_job_store.ts";
export {
  currentDrizzle,
  type DrizzleDatabase,
  drizzleTransactionOf,
  DrizzleTransactions,
} from "./drizzle_transactions.ts";
export type { DrizzleExecutor } from "./drizzle_query.ts";
export { jobsTable, jobWorkersTable } from "./jobs_table.ts";
export type {
  JobsTable,
  JobsTableColumns,
  JobWorkersTable,
  JobWorkersTableColumns,
} from "./jobs_table_types.ts";
export { createJobTables } from "./create_job_tables.ts";
export { DrizzleOutbox, DrizzleProcessedEvents } from "./drizzle_outbox.ts";
export { createKernelTables, createProcessTables } from "./create_kernel_tables.ts";
export { DrizzleProcessStore } from "./drizzle_process_store.ts";
