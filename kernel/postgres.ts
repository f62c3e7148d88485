/**
 * Postgres parts of the kernel (postgres.js): the unit of work and the outbox.
 *
 * @module
 */
export {};
