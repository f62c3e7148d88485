/**
 * The kernel on PostgreSQL (postgres.js): units of work that share one transaction, the outbox
 * and the processed-events table; the client's time-outs, its readiness check, and the translation
 * of its errors (an outage answers `SERVICE_UNAVAILABLE`).
 *
 * @module
 */
export * from "./postgres/postgres_transactions.ts";
export { kernelMigrations, migrateKernel } from "./postgres/kernel_migrations.ts";
export { PostgresOutbox } from "./postgres/postgres_outbox.ts";
export * from "./postgres/postgres_processed_events.ts";
export * from "./postgres/run_migrations.ts";
export * from "./postgres/postgres_idempotency_store.ts";
export * from "./postgres/postgres_client_options.ts";
export * from "./postgres/postgres_health.ts";
export * from "./postgres/postgres_pool.ts";
export * from "./process/postgres_process_store.ts";
export { migrateProcesses, processMigrations } from "./process/process_migrations.ts";
export { type PostgresErrorOptions, translatePostgresError } from "./postgres/postgres_errors.ts";
