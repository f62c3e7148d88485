import { createJobTablesIn } from "@kit/jobs/sql";
import type { Knex } from "knex";
import { knexQuery } from "./knex_query.ts";

/**
 * Creates or updates kit's job tables (`background_jobs` and the registry of workers
 * `background_job_workers`) in a schema, in one Knex transaction: idempotent, concurrent runs
 * wait on each other. Call it from a Knex migration (`exports.up = (knex) =>
 * createJobTable(knex, "scheduling")`) or at start.
 *
 * @example
 * ```ts ignore
 * await createJobTable(db, "scheduling");
 * ```
 *
 * @param knex The instance (or a migration's transaction).
 * @param schema The schema (a plain identifier), made if missing.
 * @returns When the tables are up to date.
 */
export async function createJobTable(knex: Knex, schema: string): Promise<void> {
  if ((knex as { isTransaction?: boolean }).isTransaction === true) {
    await createJobTablesIn(knexQuery(knex), schema);
    return;
  }
  await knex.transaction((transaction) => createJobTablesIn(knexQuery(transaction), schema));
}
