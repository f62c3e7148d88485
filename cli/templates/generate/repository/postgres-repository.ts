import type postgres from "postgres";
import {
  currentScope,
  expectSaved,
  readableTenants,
  type Registration,
  requireTenant,
  type Versioned,
} from "@kit/kernel";
import { currentSql } from "@kit/kernel/postgres";
import { $errors$ } from "../domain/$context$-errors.ts";
import { $name$ } from "../domain/$kebab$.ts";
import { $port$, type $name$Page } from "../application/ports/$kebab$-repository.ts";

/**
 * $port$ on PostgreSQL: the table $qualifiedName$, keyed by
 * `(tenant_id, id)` and written in the command's transaction. A row is written with the work's
 * tenant (`requireTenant()`), read and saved only by work that reaches its tenant (every tenant:
 * the system actor's work), and saved only at the version it was loaded at (`expectSaved`).
 * Work that reaches several tenants keeping the same id finds and saves its own tenant's row,
 * else the first tenant's by `tenant_id`.
 */
export class Postgres$port$ implements $port$ {
  constructor(private readonly sql: postgres.Sql) {}

  async get(id: string): Promise<Versioned<$name$> | undefined> {
    const [row] = await currentSql(this.sql)`
      select id, data, version from $qualified$
      where id = ${id} and ${this.#reachedTenants()}
      order by ${this.#ownTenantFirst()} limit 1`;
    if (row === undefined) return undefined;
    return { state: $name$.restore({ ...row.data, id: row.id }), version: row.version };
  }

  async add(aggregate: $name$): Promise<number> {
    const snapshot = aggregate.snapshot();
    const data = JSON.stringify(snapshot);
    const id = snapshot.id;
    const result = await currentSql(this.sql)`
      insert into $qualified$ (tenant_id, id, data, version)
      values (${requireTenant()}, ${id}, ${data}::text::jsonb, 1)
      on conflict (tenant_id, id) do nothing`;
    if (result.count === 0) throw $existsError$;
    return 1;
  }

  async save(aggregate: $name$, version: number): Promise<number> {
    const snapshot = aggregate.snapshot();
    const data = JSON.stringify(snapshot);
    const result = await currentSql(this.sql)`
      update $qualified$ set data = ${data}::text::jsonb, version = version + 1
      where id = ${snapshot.id} and version = ${version} and tenant_id = (
        select tenant_id from $qualified$
        where id = ${snapshot.id} and ${this.#reachedTenants()}
        order by ${this.#ownTenantFirst()} limit 1)`;
    return expectSaved(result.count, { type: "$kebab$", id: snapshot.id, version });
  }

  async list(page: number, pageSize: number): Promise<$name$Page> {
    const tenants = this.#reachedTenants();
    // By id compared as bytes (collate "C"), as the in-memory one sorts; offset paging reads the
    // rows it skips: for deep pages of large tenants, page by the last id seen instead.
    const rows = await currentSql(this.sql)`
      select id, data from $qualified$ where ${tenants}
      order by id collate "C", tenant_id collate "C"
      limit ${pageSize} offset ${(page - 1) * pageSize}`;
    const [counted] = await currentSql(this.sql)`
      select count(*)::int as total from $qualified$ where ${tenants}`;
    return {
      items: rows.map((row) => $name$.restore({ ...row.data, id: row.id })),
      total: counted!.total,
    };
  }

  /** The rows of the tenants the work reaches (`TENANT_REQUIRED` when it reaches none). */
  #reachedTenants(): postgres.PendingQuery<postgres.Row[]> {
    const tenants = readableTenants();
    return tenants === undefined ? this.sql`true` : this.sql`tenant_id in ${this.sql(tenants)}`;
  }

  /** The order that puts the row of the work's own tenant first, then the others by tenant. */
  #ownTenantFirst(): postgres.PendingQuery<postgres.Row[]> {
    const own = currentScope()?.execution.tenantId;
    return own === undefined
      ? this.sql`tenant_id collate "C"`
      : this.sql`tenant_id <> ${own}, tenant_id collate "C"`;
  }
}

/** How the platform provides $port$ in the $context$ context on its database. */
export function $camel$$port$OnPostgres(sql: postgres.Sql): Registration {
  return { provide: $port$, provider: { useValue: new Postgres$port$(sql) } };
}
