import type { TransactionManager } from "@kit/kernel";
import { currentUnitOfWork, type UnitOfWork } from "@kit/kernel/internal";
import { translatePostgresError } from "@kit/kernel/postgres";
import { runSqlUnitOfWork } from "@kit/jobs/sql";
import type { Knex } from "knex";
import { knexQuery } from "./knex_query.ts";
import { transactionWithConnection } from "./transaction_connections.ts";

/**
 * Units of work on Knex (PostgreSQL, `pg`): each is one `knex.transaction`, handed to
 * repositories (through {@linkcode currentKnex}), the job store and the outbox as
 * {@linkcode UnitOfWork.transaction}. Commit callbacks run after COMMIT, never after ROLLBACK;
 * `lock` takes a transaction-scoped advisory lock.
 *
 * @example
 * ```ts ignore
 * const db = knex({ client: "pg", connection: url });
 * const application = composeApplication({ modules, transactions: new KnexTransactions(db) });
 * ```
 */
export class KnexTransactions implements TransactionManager {
  readonly #knex: Knex;
  readonly #retryAfterSeconds: number;

  /**
   * Opens units of work on this instance. `retryAfterSeconds` is the `Retry-After` of the
   * `SERVICE_UNAVAILABLE` an outage answers (default 5).
   */
  constructor(knex: Knex, options: { retryAfterSeconds?: number } = {}) {
    this.#knex = knex;
    this.#retryAfterSeconds = options.retryAfterSeconds ?? 5;
  }

  /**
   * Turns a PostgreSQL error of `pg` into a refusal, as `PostgresTransactions.translateError`
   * does: an outage into `SERVICE_UNAVAILABLE`, a value the database cannot hold into
   * `INVALID_INPUT`, a serialization failure or a deadlock into `CONCURRENT_UPDATE`; answers any
   * other error unchanged.
   */
  translateError(error: unknown): unknown {
    return translatePostgresError(error, { retryAfterSeconds: this.#retryAfterSeconds });
  }

  /** Runs the work in a transaction; commits when it returns, rolls back when it throws. */
  run<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return runSqlUnitOfWork<T, Knex.Transaction>(
      (inTransaction) => transactionWithConnection(this.#knex, inTransaction),
      knexQuery,
      work,
      this.#knex,
    );
  }
}

/**
 * The Knex transaction of a unit of work, or undefined when it is not on Knex.
 *
 * @param unit The unit of work, if any.
 * @returns Its transaction.
 */
export function knexTransactionOf(unit: UnitOfWork | undefined): Knex.Transaction | undefined {
  const transaction = unit?.transaction;
  return typeof transaction === "function" &&
      (transaction as { isTransaction?: unknown }).isTransaction === true
    ? transaction as Knex.Transaction
    : undefined;
}

/**
 * What to write with: the Knex transaction of the unit of work under way, else the instance.
 * Repositories call it for every statement, so that a command's writes and its jobs commit
 * together.
 *
 * @example
 * ```ts ignore
 * await currentKnex(db)("appointments").insert(row);
 * ```
 *
 * @param knex The instance.
 * @returns The transaction under way, or the instance.
 */
export function currentKnex(knex: Knex): Knex {
  return knexTransactionOf(currentUnitOfWork()) ?? knex;
}
