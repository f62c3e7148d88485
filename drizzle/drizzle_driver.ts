import type { Logger } from "@kit/kernel";
import type { UnitOfWork } from "@kit/kernel/internal";
import { type ListenConnection, listenOnConnection, type OutboxSqlDriver } from "@kit/jobs/sql";
import { drizzleQuery } from "./drizzle_query.ts";
import {
  drizzleClientOf,
  type DrizzleDatabase,
  drizzleTransactionOf,
} from "./drizzle_transactions.ts";

interface PostgresJsListener {
  listen(channel: string, onNotify: (payload: string) => void): Promise<{
    unlisten(): Promise<void>;
  }>;
}

/** The session client of a Drizzle transaction: postgres.js's or node-postgres's. */
interface SessionClient {
  readonly _?: {
    readonly session?: {
      readonly client?: {
        unsafe?(text: string): { execute(): Promise<unknown> };
        query?(text: string): Promise<unknown>;
      };
    };
  };
}

interface PgPool {
  connect(): Promise<ListenConnection & { release(destroy?: boolean): void }>;
}

/**
 * The driver the Drizzle job store and outbox run their statements on: the database's query
 * outside a unit of work, the unit's Drizzle transaction inside one, and LISTEN on the client
 * Drizzle was given (postgres.js `listen`, or a `pg.Pool` connection of its own). A statement is
 * sent in a unit's transaction at once on the transaction's own client (postgres.js `unsafe`
 * executed, node-postgres `query`: both queue it synchronously), for the outbox's savepoints.
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
): OutboxSqlDriver {
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
    client: drizzleClientOf(db),
    query: drizzleQuery(db),
    inUnit: (unit: UnitOfWork) => {
      const transaction = drizzleTransactionOf(unit);
      return transaction === undefined ? undefined : drizzleQuery(transaction);
    },
    sendInUnit: (unit: UnitOfWork) => {
      const client = (drizzleTransactionOf(unit) as SessionClient | undefined)?._?.session?.client;
      if (typeof client?.unsafe === "function") return (text) => client.unsafe!(text).execute();
      if (typeof client?.query === "function") return (text) => client.query!(text);
      return undefined;
    },
    ...(listen === undefined ? {} : { listen }),
  };
}
