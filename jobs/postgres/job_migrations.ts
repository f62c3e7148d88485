import type postgres from "postgres";
import { type MigrationMismatchPolicy, runMigrations } from "@kit/kernel/postgres";
import { jobMigrations } from "../sql/job_table_migrations.ts";

/**
 * Creates or updates the `background_jobs` table in a schema (default: the connection's search
 * path). Idempotent; concurrent runs are serialised by an advisory lock. A ledger that differs
 * from this list is refused (see `runMigrations`).
 */
export function migrateJobs(
  sql: postgres.Sql,
  options: { schema?: string; onMismatch?: MigrationMismatchPolicy } = {},
): Promise<void> {
  return runMigrations(sql, {
    table: "kit_jobs_migrations",
    migrations: jobMigrations,
    ...options,
  });
}
