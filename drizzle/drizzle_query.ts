import { type SQL, sql } from "drizzle-orm";
import type { SqlQuery, SqlRow } from "@kit/jobs/sql";

/** What kit runs statements on: a Drizzle PostgreSQL database or transaction (`execute`). */
export interface DrizzleExecutor {
  /** Runs a statement; answers the driver's result (rows, or `{ rows }` on node-postgres). */
  execute(query: SQL): PromiseLike<unknown>;
}

/**
 * The query of a Drizzle database or transaction: the statement's text cut at each `$n`, its
 * values bound as Drizzle parameters (dates as ISO text: Drizzle's postgres.js driver sends
 * timestamps as it is given them).
 *
 * @param executor The database, or a transaction of it.
 * @returns The query.
 */
export function drizzleQuery(executor: DrizzleExecutor): SqlQuery {
  return async function query(statement) {
    const parts = statement.text.split(/\$(\d+)/);
    const chunks = parts.map((part, i) => {
      if (i % 2 === 0) return sql.raw(part);
      const value = statement.params[Number(part) - 1];
      return sql`${value instanceof Date ? value.toISOString() : value}`;
    });
    const result = await executor.execute(sql.join(chunks));
    return (Array.isArray(result) ? result : (result as { rows: SqlRow[] }).rows) as SqlRow[];
  };
}

/** The Drizzle transaction of a unit of work, or undefined when it is not on Drizzle. */
export function isDrizzleExecutor(value: unknown): value is DrizzleExecutor {
  return typeof value === "object" && value !== null &&
    typeof (value as { execute?: unknown }).execute === "function" &&
    typeof (value as { rollback?: unknown }).rollback === "function";
}
