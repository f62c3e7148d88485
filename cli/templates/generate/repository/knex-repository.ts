import type { Knex } from "knex";
import { currentKnex } from "@kit/knex";
import {
  currentScope,
  expectSaved,
  readableTenants,
  type Registration,
  requireTenant,
  type Versioned,
} from "@kit/kernel";
import { $errors$ } from "../domain/$context$-errors.ts";
import { $name$ } from "../domain/$kebab$.ts";
import { $port$, type $name$Page } from "../application/ports/$kebab$-repository.ts";

/**
 * $port$ on PostgreSQL through Knex: the table $qualifiedName$, keyed by `(tenant_id, id)` and
 * written in the command's Knex transaction (`currentKnex`). A row is written with the work's
 * tenant (`requireTenant()`), read and saved only by work that reaches its tenant (every tenant:
 * the system actor's work), and saved only at the version it was loaded at (`expectSaved`). Work
 * that reaches several tenants keeping the same id finds and saves its own tenant's row, else the
 * first tenant's by `tenant_id`.
 */
export class Knex$port$ implements $port$ {
  constructor(private readonly db: Knex) {}

  async get(id: string): Promise<Versioned<$name$> | undefined> {
    const row = await this.#rows()
      .select("id", "data", "version")
      .where("id", id)
      .where((query) => this.#reachedTenants(query))
      .orderByRaw(...this.#ownTenantFirst())
      .first();
    if (row === undefined) return undefined;
    return { state: $name$.restore({ ...row.data, id: row.id }), version: row.version };
  }

  async add(aggregate: $name$): Promise<number> {
    const snapshot = aggregate.snapshot();
    const id = snapshot.id;
    const inserted = await this.#rows()
      .insert({ tenant_id: requireTenant(), id, data: this.#jsonb(snapshot), version: 1 })
      .onConflict(["tenant_id", "id"])
      .ignore()
      .returning("id");
    if (inserted.length === 0) throw $existsError$;
    return 1;
  }

  async save(aggregate: $name$, version: number): Promise<number> {
    const snapshot = aggregate.snapshot();
    const own = this.#rows()
      .select("tenant_id")
      .where("id", snapshot.id)
      .where((query) => this.#reachedTenants(query))
      .orderByRaw(...this.#ownTenantFirst())
      .limit(1);
    const count = await this.#rows()
      .update({ data: this.#jsonb(snapshot), version: currentKnex(this.db).raw("version + 1") })
      .where("id", snapshot.id)
      .where("version", version)
      .where("tenant_id", own);
    return expectSaved(count, { type: "$kebab$", id: snapshot.id, version });
  }

  async list(page: number, pageSize: number): Promise<$name$Page> {
    // By id compared as bytes (collate "C"), as the in-memory one sorts; offset paging reads the
    // rows it skips: for deep pages of large tenants, page by the last id seen instead.
    const rows = await this.#rows()
      .select("id", "data")
      .where((query) => this.#reachedTenants(query))
      .orderByRaw('id collate "C", tenant_id collate "C"')
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    const [counted] = await this.#rows()
      .select(currentKnex(this.db).raw("count(*)::int as total"))
      .where((query) => this.#reachedTenants(query));
    return {
      items: rows.map((row: { id: string; data: object }) =>
        $name$.restore({ ...row.data, id: row.id } as never)
      ),
      total: counted.total,
    };
  }

  /** The table, in the unit of work under way. */
  #rows(): Knex.QueryBuilder {
    return currentKnex(this.db)("$table$").withSchema("$schema$");
  }

  /** The snapshot as the `jsonb` it is kept as. */
  #jsonb(snapshot: object): Knex.Raw {
    return currentKnex(this.db).raw("?::text::jsonb", [JSON.stringify(snapshot)]);
  }

  /** The rows of the tenants the work reaches (`TENANT_REQUIRED` when it reaches none). */
  #reachedTenants(query: Knex.QueryBuilder): void {
    const tenants = readableTenants();
    if (tenants !== undefined) query.whereIn("tenant_id", [...tenants]);
  }

  /** The order that puts the row of the work's own tenant first, then the others by tenant. */
  #ownTenantFirst(): [string, string[]] {
    const own = currentScope()?.execution.tenantId;
    return own === undefined
      ? ['tenant_id collate "C"', []]
      : ['tenant_id <> ?, tenant_id collate "C"', [own]];
  }
}

/** How the platform provides $port$ in the $context$ context on its database, through Knex. */
export function $camel$$port$OnKnex(db: Knex): Registration {
  return { provide: $port$, provider: { useValue: new Knex$port$(db) } };
}
