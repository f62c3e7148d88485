import { migrateKernel, migrateProcesses, runMigrations } from "@kit/kernel/postgres";
import { migrateJobOutbox } from "@kit/jobs/outbox";
import { migrateJobs } from "@kit/jobs/postgres";
import type { Database } from "./database.ts";
import { processSchema } from "../../contexts/scheduling/infrastructure/process-store.ts";
// kit:begin context-migrations
import { analyticsMigrations } from "../../contexts/analytics/infrastructure/analytics.migrations.ts";
import { availabilityMigrations } from "../../contexts/availability/infrastructure/availability.migrations.ts";
import { identityMigrations } from "../../contexts/identity/infrastructure/identity.migrations.ts";
import { notificationsMigrations } from "../../contexts/notifications/infrastructure/notifications.migrations.ts";
import { schedulingMigrations } from "../../contexts/scheduling/infrastructure/scheduling.migrations.ts";
// kit:end

/**
 * Brings the database up to date: the kernel's outbox and the jobs' outbox (relayed to Redis when
 * \`REDIS_URL\` names one), then each context's own schema with its own ordered migrations (one
 * `kit_migrations` table per schema) and its jobs' tables (`background_jobs`, with their ledger
 * `kit_jobs_migrations`: each context's jobs are kept in its schema), then the process
 * managers' tables (`kit_process_*`, with their own ledger) in the process store's schema. Idempotent;
 * concurrent runs (the API and the worker starting together) are serialised by advisory locks.
 * Each ledger keeps every migration's number, id and checksum: a database that applied other SQL
 * under a number, or a number the code lacks, is refused and nothing runs; on a development
 * database only, \`reapply\` (\`KIT_MIGRATIONS_REAPPLY=1\`) forgets a ledger from its first
 * difference and runs its migrations from there.
 */
export async function migrate(sql: Database, options: { reapply?: boolean } = {}): Promise<void> {
  await migrateKernel(sql);
  await migrateJobOutbox(sql);
  for (
    const [schema, migrations] of [
      // kit:begin migration-lists
      ["analytics", analyticsMigrations],
      ["availability", availabilityMigrations],
      ["identity", identityMigrations],
      ["notifications", notificationsMigrations],
      ["scheduling", schedulingMigrations],
      // kit:end
    ] as const
  ) {
    await runMigrations(sql, {
      table: "kit_migrations",
      schema,
      migrations,
      onMismatch: options.reapply ? "reapply" : "refuse",
    });
    // The context's jobs (`background_jobs`, and `background_job_workers`), with their own ledger
    // (`kit_jobs_migrations`) in the context's schema.
    await migrateJobs(sql, { schema, onMismatch: options.reapply ? "reapply" : "refuse" });
  }
  // The process managers' instances and the messages they handled: the application's one process
  // store, in its schema.
  await migrateProcesses(sql, {
    schema: processSchema,
    onMismatch: options.reapply ? "reapply" : "refuse",
  });
}
