import { createJobTablesIn } from "@kit/jobs/sql";
import { drizzleQuery } from "./drizzle_query.ts";
import type { DrizzleDatabase } from "./drizzle_transactions.ts";

/**
 * Creates or updates kit's job tables in a schema, in one Drizzle transaction (idempotent;
 * concurrent runs wait on each other): for a project that does not generate them with
 * drizzle-kit from {@linkcode jobsTable}, and for tests.
 *
 * @example
 * ```ts ignore
 * await createJobTables(db, "scheduling");
 * ```
 *
 * @param db The database.
 * @param schema The schema (a plain identifier), made if missing.
 * @returns When the tables are up to date.
 */
export async function createJobTables(db: DrizzleDatabase, schema: string): Promise<void> {
  await db.transaction((transaction) => createJobTablesIn(drizzleQuery(transaction), schema));
}
