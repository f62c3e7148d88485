import type { UnitOfWork } from "@kit/kernel/internal";
import { transactionOf } from "@kit/kernel/postgres";
import type postgres from "postgres";
import { SqlJobStore } from "../sql/sql_job_store.ts";
import type { JobSqlDriver, SqlQuery, SqlRow } from "../sql/job_sql_driver.ts";

/**
 * Jobs on PostgreSQL (postgres.js), in the table `background_jobs` (created by `migrateJobs`) of
 * the connection's search path — the context's own schema. An enqueue writes in the caller's
 * transaction (a rolled-back command leaves no job); a claim takes due jobs with
 * `FOR UPDATE SKIP LOCKED` in one short statement of its own; a committed insert notifies
 * `kit_jobs`, so idle workers start at once. Every statement runs prepared (unless the client
 * was made with `prepare: false`).
 *
 * @example
 * ```ts ignore
 * const store = new PostgresJobStore(sql);
 * const application = composeApplication({ modules, transactions: new PostgresTransactions(sql) });
 * ```
 */
export class PostgresJobStore extends SqlJobStore {
  /**
   * A store on this client. `listen: false` leaves idle workers to the poll interval instead of
   * LISTEN, which needs a connection of its own: for a database that serves one connection at a
   * time (PGlite through `pglite-socket`, as `deno task dev` runs it). `schema` names the schema
   * of the tables (default: the connection's search path): a context's own.
   */
  constructor(sql: postgres.Sql, options: { listen?: boolean; schema?: string } = {}) {
    super(postgresJobDriver(sql), options);
  }
}

function postgresJobDriver(sql: postgres.Sql): JobSqlDriver {
  return {
    storeName: "PostgresJobStore",
    transactionsName: "PostgresTransactions",
    client: sql,
    query: queryOn(sql),
    inUnit: (unit: UnitOfWork) => {
      const transaction = transactionOf(unit);
      return transaction === undefined ? undefined : queryOn(transaction);
    },
    listen: async (channel, onNotify) => {
      const subscription = await sql.listen(channel, onNotify);
      return () => subscription.unlisten();
    },
  };
}

function queryOn(sql: postgres.Sql | postgres.TransactionSql): SqlQuery {
  return async function query(statement) {
    const params = statement.params as postgres.ParameterOrJSON<never>[];
    const rows = await sql.unsafe(statement.text, params, { prepare: true });
    return rows as unknown as readonly SqlRow[];
  };
}
