import type { UnitOfWork } from "./unit_of_work.ts";

/**
 * The client each unit's transaction was opened on, keyed by the transaction: a unit nested in
 * another (an outbox's savepoint) or wrapped by a queue hands on the same transaction, so it keeps
 * its client without carrying it.
 */
const clients = new WeakMap<object, object>();

/**
 * Records the client a transaction manager opened a unit's transaction on (the `postgres.Sql` of
 * `PostgresTransactions`, the Drizzle client, the Knex instance), so that a store that writes in
 * the unit can tell whether its own client is the same one ({@linkcode clientOfUnit}).
 *
 * @param transaction The unit's `transaction`.
 * @param client The client it was opened on.
 */
export function recordUnitClient(transaction: object, client: object): void {
  clients.set(transaction, client);
}

/**
 * The client the unit's transaction was opened on, as its transaction manager recorded it;
 * `undefined` when the manager recorded none (a manager of another package, or in memory).
 *
 * @param unit The unit of work.
 * @returns Its client, if known.
 */
export function clientOfUnit(unit: UnitOfWork): object | undefined {
  const transaction = unit.transaction;
  return (typeof transaction === "object" && transaction !== null) ||
      typeof transaction === "function"
    ? clients.get(transaction)
    : undefined;
}
