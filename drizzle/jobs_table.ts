import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgSchema, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { PgTimestampBuilderInitial } from "drizzle-orm/pg-core";
import type { JobsTable, JobWorkersTable } from "./jobs_table_types.ts";

function timestamptz<N extends string>(name: N): PgTimestampBuilderInitial<N> {
  return timestamp(name, { withTimezone: true, mode: "date" });
}

/**
 * The Drizzle definition of kit's `background_jobs` table in a schema, for the project's Drizzle
 * schema (so drizzle-kit generates and applies its migrations): the columns and indexes of
 * `@kit/jobs`'s migrations 1 to 5, which `DrizzleJobStore` reads and writes.
 *
 * @example
 * ```ts ignore
 * // src/platform/database/schema.ts
 * export const schedulingJobs = jobsTable("scheduling");
 * export const schedulingJobWorkers = jobWorkersTable("scheduling");
 * ```
 *
 * @param schema The schema (the context's), as given to `DrizzleJobStore`.
 * @returns The table.
 */
export function jobsTable(schema: string): JobsTable {
  return pgSchema(schema).table("background_jobs", {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    queue: text("queue").notNull(),
    payload: jsonb("payload").notNull(),
    actor: jsonb("actor").notNull(),
    tenantId: text("tenant_id").notNull().default(""),
    correlationId: text("correlation_id").notNull(),
    traceparent: text("traceparent"),
    subject: text("subject"),
    idempotencyKey: text("idempotency_key"),
    status: text("status").notNull().default("waiting"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    runAt: timestamptz("run_at").notNull(),
    leaseToken: text("lease_token"),
    leaseExpiresAt: timestamptz("lease_expires_at"),
    progressDone: integer("progress_done").notNull().default(0),
    progressTotal: integer("progress_total"),
    checkpoint: jsonb("checkpoint"),
    lastErrorCode: text("last_error_code"),
    lastErrorMessage: text("last_error_message"),
    createdAt: timestamptz("created_at").notNull(),
    finishedAt: timestamptz("finished_at"),
    lastErrorAt: timestamptz("last_error_at"),
    attemptHistory: jsonb("attempt_history").notNull().default([]),
    attemptStartedAt: timestamptz("attempt_started_at"),
    workerId: text("worker_id"),
  }, (t) => [
    uniqueIndex("background_jobs_idempotency").on(t.name, t.tenantId, t.idempotencyKey)
      .where(sql`idempotency_key is not null`),
    index("background_jobs_due").on(t.queue, t.runAt, t.id).where(sql`status = 'waiting'`),
    index("background_jobs_leased").on(t.queue, t.leaseExpiresAt)
      .where(sql`status = 'running'`),
    index("background_jobs_finished").on(t.finishedAt).where(sql`finished_at is not null`),
    index("background_jobs_page").on(t.createdAt.desc(), t.id.desc()),
    index("background_jobs_queue_page").on(t.queue, t.status, t.createdAt.desc(), t.id.desc()),
    index("background_jobs_failed").on(t.lastErrorAt).where(sql`last_error_at is not null`),
    index("background_jobs_retention").on(t.queue, t.status, t.finishedAt, t.id)
      .where(sql`finished_at is not null`),
  ]);
}

/**
 * The Drizzle definition of kit's `background_job_workers` table (the registry of live workers)
 * in a schema, beside {@linkcode jobsTable}.
 *
 * @param schema The schema, as given to `jobsTable`.
 * @returns The table.
 */
export function jobWorkersTable(schema: string): JobWorkersTable {
  return pgSchema(schema).table("background_job_workers", {
    id: text("id").primaryKey(),
    host: text("host"),
    pid: integer("pid"),
    queues: jsonb("queues").notNull(),
    startedAt: timestamptz("started_at").notNull(),
    heartbeatAt: timestamptz("heartbeat_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
  });
}
