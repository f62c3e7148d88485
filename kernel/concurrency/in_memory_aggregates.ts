import { ConcurrentUpdateError } from "../errors/kernel_refusals.ts";
import { reachesTenant, requireTenant } from "../tenancy/tenancy.ts";
import { currentScope } from "../unit_of_work/work_scope.ts";
import type { Versioned } from "./versions.ts";

interface Row<S> {
  readonly tenantId: string;
  readonly state: S;
  readonly version: number;
}

/** How an {@linkcode InMemoryAggregates} refuses what it cannot keep. */
export interface InMemoryAggregatesOptions {
  /**
   * The error an insert of an id the work's tenant keeps already throws (the aggregate's own
   * `<AGGREGATE>_EXISTS` code, say); by default a `CONCURRENT_UPDATE` conflict.
   */
  readonly exists?: (id: string) => Error;
}

/**
 * The rows of one aggregate type in memory, for in-memory repositories: each row carries its
 * tenant (taken from the work that inserts it) and a version, and is keyed by its tenant and its
 * id, as a table keyed `(tenant_id, id)`: two tenants keep the same id apart, and neither learns
 * of the other's. Reads see only the rows of the tenants the work reaches; an update expects the
 * version it loaded (`CONCURRENT_UPDATE` otherwise), so in-memory repositories keep the
 * guarantees of the PostgreSQL ones. Work that reaches several tenants keeping the same id finds
 * (and updates) the row of its own tenant, else that of the first tenant by code-unit order.
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
  /** The rows by id, then by tenant. */
  readonly #rows = new Map<string, Map<string, Row<S>>>();
  readonly #type: string;
  readonly #exists: (id: string) => Error;

  /** Rows of the aggregate type named (for conflict messages: `appointment`). */
  constructor(type: string, options: InMemoryAggregatesOptions = {}) {
    this.#type = type;
    this.#exists = options.exists ??
      ((id) => new ConcurrentUpdateError(type, id, { expectedVersion: 0 }));
  }

  /** The row with this id, when the work reaches its tenant. */
  find(id: string): Versioned<S> | undefined {
    const row = this.#reached(id);
    return row && { state: row.state, version: row.version };
  }

  /**
   * Every row of the tenants the work reaches that passes the filter, in the order their ids were
   * first inserted.
   */
  list(filter: (state: S) => boolean = () => true): Versioned<S>[] {
    const execution = currentScope()?.execution;
    const out: Versioned<S>[] = [];
    for (const tenants of this.#rows.values()) {
      for (const row of tenants.values()) {
        if (reachesTenant(execution, row.tenantId) && filter(row.state)) {
          out.push({ state: row.state, version: row.version });
        }
      }
    }
    return out;
  }

  /**
   * Inserts a new row for the work's tenant (`TENANT_REQUIRED` when it has none), at version 1;
   * an id that tenant keeps already is refused (the `exists` error given, else
   * `CONCURRENT_UPDATE`) and nothing changes. Another tenant's row of the same id is no
   * obstacle.
   */
  insert(state: S): number {
    const tenantId = requireTenant();
    const tenants = this.#rows.get(state.id) ?? new Map<string, Row<S>>();
    if (tenants.has(tenantId)) throw this.#exists(state.id);
    tenants.set(tenantId, { tenantId, state, version: 1 });
    this.#rows.set(state.id, tenants);
    return 1;
  }

  /**
   * Replaces the row's state when it is still at `version` and the work reaches its tenant;
   * answers the new version. Otherwise a `CONCURRENT_UPDATE` conflict, and nothing changes.
   */
  update(state: S, version: number): number {
    const row = this.#reached(state.id);
    if (row === undefined || row.version !== version) {
      throw new ConcurrentUpdateError(this.#type, state.id, { expectedVersion: version });
    }
    this.#rows.get(state.id)!.set(row.tenantId, {
      tenantId: row.tenantId,
      state,
      version: version + 1,
    });
    return version + 1;
  }

  /** Removes the row when it is still at `version` (else `CONCURRENT_UPDATE`). */
  remove(id: string, version: number): void {
    const row = this.#reached(id);
    if (row === undefined || row.version !== version) {
      throw new ConcurrentUpdateError(this.#type, id, { expectedVersion: version });
    }
    const tenants = this.#rows.get(id)!;
    tenants.delete(row.tenantId);
    if (tenants.size === 0) this.#rows.delete(id);
  }

  /**
   * The row of this id the work reaches: its own tenant's, else the first reached tenant's by
   * code-unit order (the one a PostgreSQL repository ordering by `tenant_id collate "C"` finds).
   */
  #reached(id: string): Row<S> | undefined {
    const tenants = this.#rows.get(id);
    if (tenants === undefined) return undefined;
    const execution = currentScope()?.execution;
    const own = execution?.tenantId === undefined ? undefined : tenants.get(execution.tenantId);
    if (own !== undefined && reachesTenant(execution, own.tenantId)) return own;
    let first: Row<S> | undefined;
    for (const row of tenants.values()) {
      if (!reachesTenant(execution, row.tenantId)) continue;
      if (first === undefined || row.tenantId < first.tenantId) first = row;
    }
    return first;
  }
}
