import type { Knex } from "knex";
import type { Registration } from "@kit/kernel";
import { InMemoryProcessStore, ProcessStore } from "@kit/kernel/process";
import { KnexProcessStore } from "@kit/knex";

/**
 * The process managers' instances in memory (development and specs): every context's process
 * managers share the platform's one store.
 */
export const $registration$: Registration = {
  provide: ProcessStore,
  provider: { useFactory: () => new InMemoryProcessStore() },
};

/**
 * The process managers' instances on PostgreSQL through Knex, in the $schema$ schema
 * (`migrateProcesses`): a transition's state is written in its Knex transaction, with the events
 * and the deadline jobs of that transition.
 */
export function $registration$OnKnex(db: Knex): Registration {
  return {
    provide: ProcessStore,
    provider: { useValue: new KnexProcessStore(db, { schema: "$schema$" }) },
  };
}
