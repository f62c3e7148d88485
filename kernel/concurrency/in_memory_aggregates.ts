import { ConcurrentUpdateError } from "../errors/kernel_refusals.ts";
import { reachesTenant, requireTenant } from "../tenancy/tenancy.ts";
import { currentScope } from "../unit_of_work/work_scope.ts";
import type { Versioned } from "./versions.ts";

interface Row<S> {
  readonly tenantId: string;
  readonly state: S;
  readonly version: number;
}

/**
 * The rows of one aggregate type in memory, for in-memory repositories: each row carries its
 * tenant (taken from the work that inserts it) and a version. Reads see only the rows of the
 * tenants the work reaches; an update expects the version it loaded (`CONCURRENT_UPDATE`
 * otherwise), so in-memory repositories keep the guarantees of the PostgreSQL ones.
 * States are kept as given: store immutable snapshots.
 *
 * @example An in-memory repository
 * ```ts
 * import { InMemoryAggregates, runInScope, userActor } from "@kit/kernel";
 * const rows = new InMemoryAggregates<{ id: string; name: string }>("calendar");
 * const execution = {
 *   origin: "test", correlationId: "c", tenantId: "t1",
 *   actor: userActor("ann", { tenants: ["t1"] }),
 * };
 * runInScope({ execution }, () => {
 *   rows.insert({ id: "cal-1", name: "Dr Who" });
 *   const loaded = rows.find("cal-1")!;          // { state, version: 1 }
 *   rows.update({ ...loaded.state, name: "Dr W." }, loaded.version);
 * });
 * ```
 */
export class InMemoryAggregates<S extends { readonly id: string }> {
  readonly #rows = new Map<string, Row<S>>();
  readonly #type: string;

  /** Rows of the aggregate type named (for conflict messages: `appointment`). */
  constructor(type: string) {
    this.#type = type;
  }

  /** The row with this id, when the work reaches its tenant. */
  find(id: string): Versioned<S> | undefined {
    const row = this.#rows.get(id);
    if (row === undefined || !reachesTenant(currentScope()?.execution, row.tenantId)) {
      return undefined;
    }
    return { state: row.state, version: row.version };
  }

  /** Every row of the tenants the work reaches that passes the filter, in insertion order. */
  list(filter: (state: S) => boolean = () => true): Versioned<S>[] {
    const execution = currentScope()?.execution;
    const out: Versioned<S>[] = [];
    for (const row of this.#rows.values()) {
      if (reachesTenant(execution, row.tenantId) && filter(row.state)) {
        out.push({ state: row.state, version: row.version });
      }
    }
    return out;
  }

  /**
   * Inserts a new row for the work's tenant (`TENANT_REQUIRED` when it has none), at version 1;
   * an id already kept (in any tenant) is a `CONCURRENT_UPDATE` conflict.
   */
  insert(state: S): number {
    const tenantId = requireTenant();
    if (this.#rows.has(state.id)) {
      throw new ConcurrentUpdateError(this.#type, state.id, { expectedVersion: 0 });
    }
    this.#rows.set(state.id, { tenantId, state, version: 1 });
    return 1;
  }

  /**
   * Replaces the row's state when it is still at `version` and the work reaches its tenant;
   * answers the new version. Otherwise a `CONCURRENT_UPDATE` conflict, and nothing changes.
   */
  update(state: S, version: number): number {
    const row = this.#rows.get(state.id);
    if (
      row === undefined || row.version !== version ||
      !reachesTenant(currentScope()?.execution, row.tenantId)
    ) {
      throw new ConcurrentUpdateError(this.#type, state.id, { expectedVersion: version });
    }
    this.#rows.set(state.id, { tenantId: row.tenantId, state, version: version + 1 });
    return version + 1;
  }

  /** Removes the row when it is still at `version` (else `CONCURRENT_UPDATE`). */
  remove(id: string, version: number): void {
    const row = this.#rows.get(id);
    if (
      row === undefined || row.version !== version ||
      !reachesTenant(currentScope()?.execution, row.tenantId)
    ) {
      throw new ConcurrentUpdateError(this.#type, id, { expectedVersion: version });
    }
    this.#rows.delete(id);
  }
}
