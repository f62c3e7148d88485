import { readableTenants } from "@kit/kernel";
import type { Sql } from "@kit/kernel/postgres";
import type postgres from "postgres";

/**
 * The condition that keeps a read to the rows of the tenants the work under way reaches:
 * `tenant_id in (...)`, or `true` for work that reaches every tenant (the system actor's, with
 * no tenant). Throws `TENANT_REQUIRED` when the work reaches none (a caller who named no tenant),
 * so that such work reads nothing rather than everything.
 *
 * @example
 * ```ts ignore
 * const db = currentSql(this.sql);
 * const [row] = await db`select * from calendars where id = ${id} and ${tenantRows(db)}`;
 * ```
 */
export function tenantRows(
  db: Sql,
  column = "tenant_id",
): postgres.PendingQuery<postgres.Row[]> {
  const tenants = readableTenants();
  if (tenants === undefined) return db`true`;
  return db`${db(column)} in ${db(tenants)}`;
}
