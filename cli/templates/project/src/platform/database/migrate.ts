import { migrateKernel } from "@kit/kernel/postgres";
// kit:variant import
import { migrateJobs } from "@kit/jobs/postgres";
import project from "../../../kit.config.json" with { type: "json" };
// kit:variant end
import type { Database } from "./database.ts";
import { migrateDatabase, type MigrationOptions } from "./migrations.ts";

/**
 * kit:variant doc
 * Brings the database up to date: the kernel's outbox and processed events, each context's jobs in
 * its own schema (`<context>.background_jobs`, with its ledger `kit_jobs_migrations`), then
 * kit:variant end
 * the contexts' tables through the project's one ordered migration list. Idempotent; concurrent
 * runs (two processes starting together) are serialised by advisory locks.
 */
export async function migrate(sql: Database, options: MigrationOptions = {}): Promise<void> {
  await migrateKernel(sql);
  // kit:variant migrate-jobs
  for (const { name } of project.contexts) {
    await migrateJobs(sql, {
      schema: name.replaceAll("-", "_"),
      onMismatch: options.reapply ? "reapply" : "refuse",
    });
  }
  // kit:variant end
  await migrateDatabase(sql, options);
}
