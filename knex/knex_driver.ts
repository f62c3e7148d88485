import type { Logger } from "@kit/kernel";
import type { UnitOfWork } from "@kit/kernel/internal";
import { type ListenConnection, listenOnConnection, type OutboxSqlDriver } from "@kit/jobs/sql";
import type { Knex } from "knex";
import { knexQuery } from "./knex_query.ts";
import { knexTransactionOf } from "./knex_transactions.ts";
import { connectionOf } from "./transaction_connections.ts";

interface RawConnections {
  acquireRawConnection(): Promise<ListenConnection>;
  destroyRawConnection(connection: ListenConnection): Promise<void>;
}

/**
 * The driver the Knex job store and outbox run their statements on: the instance's pooled
 * connections outside a unit of work, the unit's Knex transaction inside one, and LISTEN on a
 * `pg` connection of its own, outside the pool. A statement is sent in a unit's transaction at
 * once on the transaction's `pg` connection (`query` queues it synchronously), for the outbox's
 * savepoints.
 *
 * @param knex The instance.
 * @param logger Where a lost listening connection is logged.
 * @param storeName The name of the store in error messages (`KnexOutbox`).
 * @returns The driver.
 */
export function knexDriver(knex: Knex, logger: Logger, storeName: string): OutboxSqlDriver {
  const client = knex.client as RawConnections;
  return {
    storeName,
    transactionsName: "KnexTransactions",
    client: knex,
    query: knexQuery(knex),
    inUnit: (unit: UnitOfWork) => {
      const transaction = knexTransactionOf(unit);
      return transaction === undefined ? undefined : knexQuery(transaction);
    },
    sendInUnit: (unit: UnitOfWork) => {
      const transaction = knexTransactionOf(unit);
      const connection = transaction === undefined ? undefined : connectionOf(transaction);
      return connection === undefined ? undefined : (text) => connection.query(text);
    },
    listen: async (channel, onNotify) => {
      const connection = await client.acquireRawConnection();
      const release = () => client.destroyRawConnection(connection);
      return await listenOnConnection(connection, release, channel, onNotify, logger);
    },
  };
}
