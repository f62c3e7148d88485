import type { Logger, UnitOfWork } from "@kit/kernel";
import { type JobSqlDriver, type ListenConnection, listenOnConnection } from "@kit/jobs/sql";
import { drizzleQuery } from "./drizzle_query.ts";
import { type DrizzleDatabase, drizzleTransactionOf } from "./drizzle_transactions.ts";

interface PostgresJsListener {
  listen(channel: string, onNotify: (payload: string) => void): Promise<{
    unlisten(): Promise<void>;
  }>;
}

interface PgPool {
  connect(): Promise<ListenConnection & { release(destroy?: boolean): void }>;
}

/**
 * The driver the Drizzle job store and outbox run their statements on: the database's query
 * outside a unit of work, the unit's Drizzle transaction inside one, and LISTEN on the client
 * Drizzle was given (postgres.js `listen`, or a `pg.Pool` connection of its own).
 *
 * @param db The database.
 * @param logger Where a lost listening connection is logged.
 * @param storeName The name of the store in error messages (`DrizzleOutbox`).
 * @returns The driver.
 */
export function drizzleDriver(
  db: DrizzleDatabase,
  logger: Logger,
  storeName: string,
): JobSqlDriver {
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
    storeName,
    transactionsName: "DrizzleTransactions",
    query: drizzleQuery(db),
    inUnit: (unit: UnitOfWork) => {
      const transaction = drizzleTransactionOf(unit);
      return transaction === undefined ? undefined : drizzleQuery(transaction);
    },
    ...(listen === undefined ? {} : { listen }),
  };
}
