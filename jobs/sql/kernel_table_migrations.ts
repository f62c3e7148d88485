import { kernelMigrations, type Migration, processMigrations } from "@kit/kernel/postgres";
import type { SqlQuery } from "./job_sql_driver.ts";

/**
 * Creates or updates the kernel's tables (`kit_outbox`, `kit_outbox_deliveries`,
 * `kit_processed_events`, `kit_idempotency_keys`) in a schema, through a driver's transaction
 * (`query` runs on it): the schema made if missing, every migration of `kernelMigrations` run in
 * order (each is idempotent), concurrent runs serialised by an advisory lock. For the ORM
 * packages' `createKernelTables`; kit's own ledger of applied versions is `migrateKernel`
 * (postgres.js), which may run later on the same schema.
 *
 * @param query The query of an open transaction; the caller commits it.
 * @param schema The schema (a plain identifier).
 * @returns When the tables are up to date in the transaction.
 */
export async function createKernelTablesIn(query: SqlQuery, schema: string): Promise<void> {
  await createTablesIn(query, schema, {
    what: "kernel tables'",
    lock: "kit_kernel_tables",
    migrations: kernelMigrations,
  });
}

/**
 * Creates or updates the process managers' tables (`kit_process_instances`,
 * `kit_process_messages`) in a schema (the context's), through a driver's transaction, as
 * {@linkcode createKernelTablesIn} does the kernel's: every migration of `migrateProcesses` run in
 * order (each is idempotent), concurrent runs serialised by an advisory lock. For the ORM
 * packages' `createProcessTables`; `migrateProcesses` (postgres.js, with its ledger) may run
 * later on the same schema.
 *
 * @param query The query of an open transaction; the caller commits it.
 * @param schema The schema (a plain identifier).
 * @returns When the tables are up to date in the transaction.
 */
export async function createProcessTablesIn(query: SqlQuery, schema: string): Promise<void> {
  await createTablesIn(query, schema, {
    what: "process tables'",
    lock: "kit_process_tables",
    migrations: processMigrations,
  });
}

async function createTablesIn(
  query: SqlQuery,
  schema: string,
  tables: { what: string; lock: string; migrations: readonly Migration[] },
): Promise<void> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema)) {
    throw new TypeError(
      `The ${tables.what} schema is a plain identifier (letters, digits, _), got ${
        JSON.stringify(schema)
      }`,
    );
  }
  const run = (name: string, text: string, params: unknown[] = []) => query({ name, text, params });
  await run("lockKernelTables", "select pg_advisory_xact_lock(hashtextextended($1, 0))", [
    `${tables.lock}:${schema}`,
  ]);
  await run("createKernelSchema", `create schema if not exists "${schema}"`);
  await run("setKernelSchema", `set local search_path to "${schema}"`);
  for (const migration of tables.migrations) await run("migrateKernelTables", migration.sql);
}
