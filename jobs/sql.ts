/**
 * Jobs on PostgreSQL through any driver: `SqlJobStore`, whose statements are SQL text with
 * positional parameters run by a `JobSqlDriver` (postgres.js in `@kit/jobs/postgres`, Drizzle in
 * `@kit/drizzle`, Knex in `@kit/knex`), and what such a driver builds on; the kernel's outbox and
 * processed events on such a driver (`SqlOutbox`, `SqlProcessedEvents`, the statements of
 * `PostgresOutbox`) and the process managers' store (`SqlProcessStore`, the statements of
 * `PostgresProcessStore`), for the ORM packages. Web-standard only.
 *
 * @module
 */
export { SqlJobStore, type SqlJobStoreOptions } from "./sql/sql_job_store.ts";
export type { JobSqlDriver, SqlQuery, SqlRow } from "./sql/job_sql_driver.ts";
export { runSqlUnitOfWork } from "./sql/sql_unit_of_work.ts";
export { type ListenConnection, listenOnConnection } from "./sql/listen_connection.ts";
export { createJobTablesIn } from "./sql/job_table_migrations.ts";
export {
  type OutboxSqlDriver,
  SqlOutbox,
  type SqlOutboxOptions,
  SqlProcessedEvents,
} from "./sql/sql_outbox.ts";
export { createKernelTablesIn, createProcessTablesIn } from "./sql/kernel_table_migrations.ts";
export { SqlProcessStore, type SqlProcessStoreOptions } from "./sql/sql_process_store.ts";
