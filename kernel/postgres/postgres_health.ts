import type postgres from "postgres";
import type { HealthCheck } from "../health/readiness.ts";

/**
 * The readiness check of a PostgreSQL client: one `select 1` through its pool, so that it fails
 * when the server is out of reach and when no connection comes free in time.
 *
 * @example
 * ```ts ignore
 * const report = await checkReadiness({ database: postgresHealthCheck(sql) }, { timeout: "2s" });
 * ```
 */
export function postgresHealthCheck(sql: postgres.Sql): HealthCheck {
  return async function database(): Promise<void> {
    await sql`select 1`;
  };
}
