/**
 * The kernel on PostgreSQL (postgres.js): units of work that share one transaction, the outbox
 * and the processed-events table.
 *
 * @module
 */
export * from "./postgres/postgres_transactions.ts";
export * from "./postgres/kernel_migrations.ts";
export * from "./postgres/postgres_outbox.ts";
export * from "./postgres/postgres_processed_events.ts";
export * from "./postgres/run_migrations.ts";
