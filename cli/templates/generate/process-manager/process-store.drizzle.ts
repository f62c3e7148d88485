import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { Registration } from "@kit/kernel";
import { InMemoryProcessStore, ProcessStore } from "@kit/kernel/process";
import { DrizzleProcessStore } from "@kit/drizzle";

/**
 * The process managers' instances in memory (development and specs): every context's process
 * managers share the platform's one store.
 */
export const $registration$: Registration = {
  provide: ProcessStore,
  provider: { useFactory: () => new InMemoryProcessStore() },
};

/**
 * The process managers' instances on PostgreSQL through Drizzle, in the $schema$ schema
 * (`migrateProcesses`): a transition's state is written in its Drizzle transaction, with the
 * events and the deadline jobs of that transition.
 */
export function $registration$OnDrizzle(db: PostgresJsDatabase): Registration {
  return {
    provide: ProcessStore,
    provider: { useValue: new DrizzleProcessStore(db, { schema: "$schema$" }) },
  };
}
