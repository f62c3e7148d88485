/**
 * kit on Knex (PostgreSQL, `pg`): `KnexJobStore`, whose jobs are written in the use case's Knex
 * transaction; `KnexTransactions`, the kernel's unit of work on Knex; `KnexOutbox` and
 * `KnexProcessedEvents`, whose events are written in that transaction too, and `KnexProcessStore`,
 * whose process instances are; `createJobTable`, `createKernelTables` and `createProcessTables`,
 * the tables in a schema.
 *
 * @module
 */
export { KnexJobStore } from "./knex_job_store.ts";
export { currentKnex, knexTransactionOf, KnexTransactions } from "./knex_transactions.ts";
export { createJobTable } from "./create_job_table.ts";
export { KnexOutbox, KnexProcessedEvents } from "./knex_outbox.ts";
export { createKernelTables, createProcessTables } from "./create_kernel_tables.ts";
export { KnexProcessStore } from "./knex_process_store.ts";
