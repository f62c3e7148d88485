import { type SQL, sql } from "drizzle-orm";
import type { SqlQuery, SqlRow } from "@kit/jobs/sql";

/** What kit runs statements on: a Drizzle PostgreSQL database or transaction (`execute`). */
export interface DrizzleExecutor {
  /** Runs a statement; answers the driver's result (rows, or `{ rows }` on node-postgres). */
  execute(query: SQL): PromiseLike<unknown>;
}

interface PostgresJsSession {
  readonly _?: {
    readonly session?: {
      readonly client?: {
        unsafe?(text: string, params: unknown[], options: { prepare: boolean }): Promise<SqlRow[]>;
      };
    };
  };
}

/**
 * The query of a Drizzle database or transaction. On Drizzle's postgres.js driver, the statement
 * runs prepared on the session's client (`db._.session.client`, the transaction's own in a
 * transaction): Drizzle's `execute` sends each statement unprepared, a round trip more, and
 * processing ran at a third of the rate. On another driver, the statement's text is cut at each
 * `$n` and its values bound as Drizzle parameters. Dates travel as ISO text: Drizzle's postgres.js
 * driver replaces the client's date serializer.
 *
 * @param executor The database, or a transaction of it.
 * @returns The query.
 */
export function drizzleQuery(executor: DrizzleExecutor): SqlQuery {
  const client = (executor as PostgresJsSession)._?.session?.client;
  if (typeof client?.unsafe === "function") {
    return async function query(statement) {
      const params = statement.params.map((v) => v instanceof Date ? v.toISOString() : v);
      return await client.unsafe!(statement.text, params, { prepare: true });
    };
  }
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
