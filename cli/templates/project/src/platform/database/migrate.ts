import { migrateKernel } from "@kit/kernel/postgres";
// kit:variant import
import { migrateJobs } from "@kit/jobs/postgres";
// kit:variant end
import type { Database } from "./database.ts";
import { migrateDatabase, type MigrationOptions } from "./migrations.ts";

/**
 * kit:variant doc
 * Brings the database up to date: the kernel's outbox and processed events, the job store, then
 * kit:variant end
 * the contexts' tables through the project's one ordered migration list. Idempotent; concurrent
 * runs (two processes starting together) are serialised by advisory locks.
 */
export async function migrate(sql: Database, options: MigrationOptions = {}): Promise<void> {
  await migrateKernel(sql);
  // kit:variant migrate-jobs
  await migrateJobs(sql);
  // kit:variant end
  await migrateDatabase(sql, options);
}
