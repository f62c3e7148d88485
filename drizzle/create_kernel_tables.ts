import { createKernelTablesIn, createProcessTablesIn } from "@kit/jobs/sql";
import { drizzleQuery } from "./drizzle_query.ts";
import type { DrizzleDatabase } from "./drizzle_transactions.ts";

/**
 * Creates or updates the kernel's tables (the outbox `kit_outbox` and `kit_outbox_deliveries`,
 * `kit_processed_events`, `kit_idempotency_keys`) in a schema, in one Drizzle transaction
 * (idempotent; concurrent runs wait on each other): the tables `DrizzleOutbox` and
 * `DrizzleProcessedEvents` write.
 *
 * @example
 * ```ts ignore
 * await createKernelTables(db, "scheduling");
 * ```
 *
 * @param db The database.
 * @param schema The schema (a plain identifier), made if missing.
 * @returns When the tables are up to date.
 */
export async function createKernelTables(db: DrizzleDatabase, schema: string): Promise<void> {
  await db.transaction((transaction) => createKernelTablesIn(drizzleQuery(transaction), schema));
}

/**
 * Creates or updates the process managers' tables (`kit_process_instances`,
 * `kit_process_messages`, those of `migrateProcesses`) in a schema (the context's), in one Drizzle
 * transaction (idempotent; concurrent runs wait on each other): the tables `DrizzleProcessStore`
 * writes.
 *
 * @example
 * ```ts ignore
 * await createProcessTables(db, "scheduling");
 * const store = new DrizzleProcessStore(db, { schema: "scheduling" });
 * ```
 *
 * @param db The database.
 * @param schema The schema (a plain identifier), made if missing.
 * @returns When the tables are up to date.
 */
export async function createProcessTables(db: DrizzleDatabase, schema: string): Promise<void> {
  await db.transaction((transaction) => createProcessTablesIn(drizzleQuery(transaction), schema));
}
