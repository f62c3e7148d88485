import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { currentDrizzle } from "@kit/drizzle";
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
import { $tableConst$ } from "./$kebab$.table.ts";

/**
 * $port$ on PostgreSQL through Drizzle: the table $qualifiedName$ (`$kebab$.table.ts`), keyed by
 * `(tenant_id, id)` and written in the command's Drizzle transaction (`currentDrizzle`). A row is
 * written with the work's tenant (`requireTenant()`), read and saved only by work that reaches its
 * tenant (every tenant: the system actor's work), and saved only at the version it was loaded at
 * (`expectSaved`). Work that reaches several tenants keeping the same id finds and saves its own
 * tenant's row, else the first tenant's by `tenant_id`.
 */
export class Drizzle$port$ implements $port$ {
  constructor(private readonly db: PostgresJsDatabase) {}

  async get(id: string): Promise<Versioned<$name$> | undefined> {
    const [row] = await currentDrizzle(this.db)
      .select({ id: $tableConst$.id, data: $tableConst$.data, version: $tableConst$.version })
      .from($tableConst$)
      .where(and(eq($tableConst$.id, id), this.#reachedTenants()))
      .orderBy(...this.#ownTenantFirst())
      .limit(1);
    if (row === undefined) return undefined;
    return { state: $name$.restore({ ...row.data, id: row.id }), version: row.version };
  }

  async add(aggregate: $name$): Promise<number> {
    const snapshot = aggregate.snapshot();
    const id = snapshot.id;
    const inserted = await currentDrizzle(this.db)
      .insert($tableConst$)
      .values({ tenantId: requireTenant(), id, data: asJsonb(snapshot), version: 1 })
      .onConflictDoNothing({ target: [$tableConst$.tenantId, $tableConst$.id] })
      .returning({ id: $tableConst$.id });
    if (inserted.length === 0) throw $existsError$;
    return 1;
  }

  async save(aggregate: $name$, version: number): Promise<number> {
    const snapshot = aggregate.snapshot();
    const own = currentDrizzle(this.db)
      .select({ tenantId: $tableConst$.tenantId })
      .from($tableConst$)
      .where(and(eq($tableConst$.id, snapshot.id), this.#reachedTenants()))
      .orderBy(...this.#ownTenantFirst())
      .limit(1);
    const saved = await currentDrizzle(this.db)
      .update($tableConst$)
      .set({ data: asJsonb(snapshot), version: sql`${$tableConst$.version} + 1` })
      .where(and(
        eq($tableConst$.id, snapshot.id),
        eq($tableConst$.version, version),
        sql`${$tableConst$.tenantId} = (${own})`,
      ))
      .returning({ id: $tableConst$.id });
    return expectSaved(saved.length, { type: "$kebab$", id: snapshot.id, version });
  }

  async list(page: number, pageSize: number): Promise<$name$Page> {
    const tenants = this.#reachedTenants();
    // By id compared as bytes (collate "C"), as the in-memory one sorts; offset paging reads the
    // rows it skips: for deep pages of large tenants, page by the last id seen instead.
    const rows = await currentDrizzle(this.db)
      .select({ id: $tableConst$.id, data: $tableConst$.data })
      .from($tableConst$)
      .where(tenants)
      .orderBy(sql`${$tableConst$.id} collate "C"`, sql`${$tableConst$.tenantId} collate "C"`)
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    const [counted] = await currentDrizzle(this.db)
      .select({ total: sql<number>`count(*)::int` })
      .from($tableConst$)
      .where(tenants);
    return {
      items: rows.map((row) => $name$.restore({ ...row.data, id: row.id })),
      total: counted!.total,
    };
  }

  /** The rows of the tenants the work reaches (`TENANT_REQUIRED` when it reaches none). */
  #reachedTenants(): SQL | undefined {
    const tenants = readableTenants();
    return tenants === undefined ? undefined : inArray($tableConst$.tenantId, [...tenants]);
  }

  /** The order that puts the row of the work's own tenant first, then the others by tenant. */
  #ownTenantFirst(): SQL[] {
    const own = currentScope()?.execution.tenantId;
    const byTenant = sql`${$tableConst$.tenantId} collate "C"`;
    return own === undefined ? [byTenant] : [sql`${$tableConst$.tenantId} <> ${own}`, byTenant];
  }
}

/** The snapshot as the `jsonb` it is kept as. */
function asJsonb(snapshot: object): SQL {
  return sql`${JSON.stringify(snapshot)}::text::jsonb`;
}

/** How the platform provides $port$ in the $context$ context on its database, through Drizzle. */
export function $camel$$port$OnDrizzle(db: PostgresJsDatabase): Registration {
  return { provide: $port$, provider: { useValue: new Drizzle$port$(db) } };
}
