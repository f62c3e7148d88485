import type { Knex } from "knex";

/** A `pg` client as far as sending a statement at once needs it. */
export interface PgClient {
  /** Queues a statement on the connection (synchronously) and answers its result. */
  query(text: string): Promise<unknown>;
}

const connections = new WeakMap<Knex.Transaction, PgClient>();

/**
 * Runs `work` in a Knex transaction, the transaction's `pg` connection kept so that a statement
 * can be sent on it at once ({@linkcode connectionOf}): Knex hands it out only through a promise.
 *
 * @param knex The instance.
 * @param work The transaction's work.
 * @returns What the work answers, once committed.
 */
export function transactionWithConnection<T>(
  knex: Knex,
  work: (transaction: Knex.Transaction) => Promise<T>,
): Promise<T> {
  return knex.transaction(async (transaction) => {
    const client = transaction.client as { acquireConnection(): Promise<PgClient> };
    connections.set(transaction, await client.acquireConnection());
    return await work(transaction);
  });
}

/**
 * The `pg` connection of a transaction opened by {@linkcode transactionWithConnection}.
 *
 * @param transaction The transaction.
 * @returns Its connection, or undefined for another transaction.
 */
export function connectionOf(transaction: Knex.Transaction): PgClient | undefined {
  return connections.get(transaction);
}
