import { createKernelTablesIn, createProcessTablesIn } from "@kit/jobs/sql";
import type { Knex } from "knex";
import { knexQuery } from "./knex_query.ts";

/**
 * Creates or updates the kernel's tables (the outbox `kit_outbox` and `kit_outbox_deliveries`,
 * `kit_processed_events`, `kit_idempotency_keys`) in a schema, in one Knex transaction
 * (idempotent; concurrent runs wait on each other): the tables `KnexOutbox` and
 * `KnexProcessedEvents` write. Call it from a Knex migration (`exports.up = (knex) =>
 * createKernelTables(knex, "scheduling")`) or at start.
 *
 * @example
 * ```ts ignore
 * await createKernelTables(db, "scheduling");
 * ```
 *
 * @param knex The instance (or a migration's transaction).
 * @param schema The schema (a plain identifier), made if missing.
 * @returns When the tables are up to date.
 */
export async function createKernelTables(knex: Knex, schema: string): Promise<void> {
  if ((knex as { isTransaction?: boolean }).isTransaction === true) {
    await createKernelTablesIn(knexQuery(knex), schema);
    return;
  }
  await knex.transaction((transaction) => createKernelTablesIn(knexQuery(transaction), schema));
}

/**
 * Creates or updates the process managers' tables (`kit_process_instances`,
 * `kit_process_messages`, those of `migrateProcesses`) in a schema (the context's), in one Knex
 * transaction (idempotent; concurrent runs wait on each other): the tables `KnexProcessStore`
 * writes. Call it from a Knex migration (`exports.up = (knex) => createProcessTables(knex,
 * "scheduling")`) or at start.
 *
 * @example
 * ```ts ignore
 * await createProcessTables(db, "scheduling");
 * const store = new KnexProcessStore(db, { schema: "scheduling" });
 * ```
 *
 * @param knex The instance (or a migration's transaction).
 * @param schema The schema (a plain identifier), made if missing.
 * @returns When the tables are up to date.
 */
export async function createProcessTables(knex: Knex, schema: string): Promise<void> {
  if ((knex as { isTransaction?: boolean }).isTransaction === true) {
    await createProcessTablesIn(knexQuery(knex), schema);
    return;
  }
  await knex.transaction((transaction) => createProcessTablesIn(knexQuery(transaction), schema));
}
