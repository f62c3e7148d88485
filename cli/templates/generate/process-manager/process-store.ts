import type postgres from "postgres";
import type { Registration } from "@kit/kernel";
import { InMemoryProcessStore, ProcessStore } from "@kit/kernel/process";
import { PostgresProcessStore } from "@kit/kernel/postgres";

/**
 * The process managers' instances in memory (development and specs): every context's process
 * managers share the platform's one store.
 */
export const $registration$: Registration = {
  provide: ProcessStore,
  provider: { useFactory: () => new InMemoryProcessStore() },
};

/** The process managers' instances on PostgreSQL, in the $schema$ schema (`migrateProcesses`). */
export function $registration$OnPostgres(sql: postgres.Sql): Registration {
  return {
    provide: ProcessStore,
    provider: { useValue: new PostgresProcessStore(sql, { schema: "$schema$" }) },
  };
}
