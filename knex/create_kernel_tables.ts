import { createKernelTablesIn } from "@kit/jobs/sql";
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
