import { InMemoryAggregates, readableTenants, type Registration, type Versioned } from "@kit/kernel";
import { $errors$ } from "../domain/$context$-errors.ts";
import { $name$, type $name$Snapshot } from "../domain/$kebab$.ts";
import { $port$, type $name$Page } from "../application/ports/$kebab$-repository.ts";

/**
 * $port$ in memory, for specs and single-process runs, with the guarantees of the PostgreSQL one:
 * each $name$ kept with the tenant of the work that added it, keyed by that tenant and its id, and
 * found by that tenant's work only; each save expecting the version it loaded. Snapshots are kept
 * as JSON, as PostgreSQL keeps them.
 */
export class InMemory$port$ implements $port$ {
  readonly #rows = new InMemoryAggregates<$name$Snapshot>("$kebab$", {
    exists: (id) => $existsError$,
  });

  get(id: string): Promise<Versioned<$name$> | undefined> {
    return settled(() => {
      readableTenants(); // work that reaches no tenant is refused, as on PostgreSQL
      const row = this.#rows.find(id);
      return row && { state: $name$.restore(row.state), version: row.version };
    });
  }

  add(aggregate: $name$): Promise<number> {
    return settled(() => this.#rows.insert(asJson(aggregate.snapshot())));
  }

  save(aggregate: $name$, version: number): Promise<number> {
    return settled(() => this.#rows.update(asJson(aggregate.snapshot()), version));
  }

  list(page: number, pageSize: number): Promise<$name$Page> {
    return settled(() => {
      readableTenants(); // work that reaches no tenant is refused, as on PostgreSQL
      const rows = this.#rows.list().sort((a, b) => a.state.id < b.state.id ? -1 : a.state.id > b.state.id ? 1 : 0);
      const start = (page - 1) * pageSize;
      return {
        items: rows.slice(start, start + pageSize).map((row) => $name$.restore(row.state)),
        total: rows.length,
      };
    });
  }
}

/** The snapshot as PostgreSQL keeps it: what does not survive JSON fails in memory too. */
function asJson(snapshot: $name$Snapshot): $name$Snapshot {
  return JSON.parse(JSON.stringify(snapshot));
}

/** What `work` answers, as a promise; what it throws, as a rejection (Node 20 has no Promise.try). */
function settled<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** How the platform provides $port$ in the $context$ context when it runs in memory. */
export const $camel$$port$: Registration = {
  provide: $port$,
  provider: { useClass: InMemory$port$, deps: [] },
};
