import { consoleLogger, type Logger } from "@kit/kernel";
import type { UnitOfWork } from "@kit/kernel/internal";
import {
  type JobSqlDriver,
  type ListenConnection,
  listenOnConnection,
  SqlJobStore,
  type SqlJobStoreOptions,
} from "@kit/jobs/sql";
import { drizzleQuery } from "./drizzle_query.ts";
import { type DrizzleDatabase, drizzleTransactionOf } from "./drizzle_transactions.ts";

/**
 * Jobs on PostgreSQL through Drizzle (its postgres.js or node-postgres driver), in the table of
 * `jobsTable(schema)`. An enqueue writes in the caller's Drizzle transaction, the one of the unit
 * of work ({@linkcode DrizzleTransactions}): the job exists if and only if the use case commits. A
 * claim takes due jobs with `FOR UPDATE SKIP LOCKED` in one statement of its own; a committed
 * insert notifies `kit_jobs`, and the store listens on the client Drizzle was given (postgres.js
 * `listen`, or a `pg.Pool` connection of its own), so idle workers start at once.
 *
 * @example
 * ```ts ignore
 * const db = drizzle(postgres(url));
 * const transactions = new DrizzleTransactions(db);
 * const store = new DrizzleJobStore(db, { schema: "scheduling" });
 * ```
 */
export class DrizzleJobStore extends SqlJobStore {
  /** A store on this database. */
  constructor(db: DrizzleDatabase, options: SqlJobStoreOptions = {}) {
    super(drizzleJobDriver(db, options.logger ?? consoleLogger()), options);
  }
}

interface PostgresJsListener {
  listen(channel: string, onNotify: (payload: string) => void): Promise<{
    unlisten(): Promise<void>;
  }>;
}

interface PgPool {
  connect(): Promise<ListenConnection & { release(destroy?: boolean): void }>;
}

function drizzleJobDriver(db: DrizzleDatabase, logger: Logger): JobSqlDriver {
  const client = db.$client as Partial<PostgresJsListener & PgPool> | undefined;
  const listen = typeof client?.listen === "function"
    ? async (channel: string, onNotify: (payload: string) => void) => {
      const subscription = await (client as PostgresJsListener).listen(channel, onNotify);
      return () => subscription.unlisten();
    }
    : typeof client?.connect === "function"
    ? async (channel: string, onNotify: (payload: string) => void) => {
      const connection = await (client as PgPool).connect();
      const release = () => Promise.resolve(connection.release(true));
      return await listenOnConnection(connection, release, channel, onNotify, logger);
    }
    : undefined;
  return {
    storeName: "DrizzleJobStore",
    transactionsName: "DrizzleTransactions",
    query: drizzleQuery(db),
    inUnit: (unit: UnitOfWork) => {
      const transaction = drizzleTransactionOf(unit);
      return transaction === undefined ? undefined : drizzleQuery(transaction);
    },
    ...(listen === undefined ? {} : { listen }),
  };
}
