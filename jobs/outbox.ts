/**
 * Background jobs enqueued through an outbox in PostgreSQL and relayed to another store (Redis):
 * `OutboxJobStore` and `migrateJobOutbox`.
 *
 * @module
 */
export { migrateJobOutbox } from "./outbox/job_outbox_migrations.ts";
export * from "./outbox/outbox_job_store.ts";
