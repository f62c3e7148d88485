import { InMemoryProcessStore, type ProcessStore } from "@kit/kernel/process";
import { PostgresProcessStore } from "@kit/kernel/postgres";
import type { Database } from "../../../platform/database/database.ts";

/** The schema the process managers' instances are kept in (`migrateProcesses` in `migrate.ts`). */
export const processSchema = "scheduling";

/**
 * The application's one process store (the `ProcessStore` token): the instances of every
 * context's process managers, keyed by process (`<context>.<process>`), tenant and key. On
 * PostgreSQL in the scheduling schema, the context that had the first process manager (the
 * appointment confirmation); in memory when the platform is composed without a database.
 */
export function schedulingProcessStore(sql: Database | undefined): ProcessStore {
  return sql
    ? new PostgresProcessStore(sql, { schema: processSchema })
    : new InMemoryProcessStore();
}
