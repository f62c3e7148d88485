import { migrateKernel } from "@kit/kernel/postgres";
import type { Database } from "./database.ts";
import { migrateDatabase, type MigrationOptions } from "./migrations.ts";

/**
 * Brings the database up to date: the kernel's outbox and processed events, then
 * the contexts' tables through the project's one ordered migration list. Idempotent; concurrent
 * runs (two processes starting together) are serialised by advisory locks.
 */
export async function migrate(sql: Database, options: MigrationOptions = {}): Promise<void> {
  await migrateKernel(sql);
  await migrateDatabase(sql, options);
}
