/**
 * Background jobs on PostgreSQL (postgres.js): `PostgresJobStore` and its migrations.
 *
 * @module
 */
export { migrateJobs } from "./postgres/job_migrations.ts";
export { PostgresJobStore } from "./postgres/postgres_job_store.ts";
