import type postgres from "postgres";
import { uuidv7 } from "../ids/id.ts";
import { postgresUnavailability, translatePostgresError } from "./postgres_errors.ts";
import { type Duration, toMilliseconds } from "../time/duration.ts";
import { CommitCallbacks } from "../unit_of_work/commit_callbacks.ts";
import type { TransactionManager, UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import { currentUnitOfWork } from "../unit_of_work/work_scope.ts";
import { recordUnitClient } from "../unit_of_work/unit_client.ts";

/** A postgres.js client, or a transaction of one. */
export type Sql = postgres.Sql | postgres.TransactionSql;

/** How {@linkcode PostgresTransactions} answers an outage. */
export interface PostgresTransactionsOptions {
  /**
   * The `Retry-After` of the `SERVICE_UNAVAILABLE` an outage answers (default `"5s"`, rounded up
   * to whole seconds).
   */
  readonly retryAfter?: Duration;
}

/**
 * Units of work on PostgreSQL: each is one `sql.begin` transaction, handed to repositories, the
 * outbox and the job store through {@linkcode UnitOfWork.transaction}. Commit callbacks run after
 * COMMIT, never after ROLLBACK. A unit that cannot start or finish because the database is out of
 * reach fails with `SERVICE_UNAVAILABLE` (see {@linkcode postgresUnavailability}); how soon
 * depends on the client's time-outs (`postgresClientOptions`).
 *
 * @example
 * ```ts ignore
 * import postgres from "postgres";
 * const sql = postgres(Deno.env.get("DATABASE_URL")!);
 * const application = composeApplication({ modules, transactions: new PostgresTransactions(sql) });
 * ```
 */
export class PostgresTransactions implements TransactionManager {
  readonly #sql: postgres.Sql;
  readonly #retryAfterSeconds: number;

  /** Opens units of work on this client. */
  constructor(sql: postgres.Sql, options: PostgresTransactionsOptions = {}) {
    this.#sql = sql;
    this.#retryAfterSeconds = Math.ceil(toMilliseconds(options.retryAfter ?? "5s") / 1000);
  }

  /** The client the units are opened on. */
  get sql(): postgres.Sql {
    return this.#sql;
  }

  /**
   * Runs the work in a transaction; commits when it returns, rolls back when it throws. Fails
   * with `SERVICE_UNAVAILABLE` when the database is out of reach (no connection, the connection
   * lost, a time-out): then the work may have committed only if the connection was lost during
   * COMMIT.
   */
  async run<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    const callbacks = new CommitCallbacks();
    let result!: T;
    try {
      await this.#sql.begin(async (transaction) => {
        // A job store on this client writes in the unit unchecked; one on another client first
        // checks that it is on the same database.
        recordUnitClient(transaction, this.#sql);
        const locked = new Set<string>();
        const unit: UnitOfWork = {
          id: uuidv7(),
          transaction,
          whenCommitted: (callback) => callbacks.add(callback),
          lock: async (key) => {
            if (typeof key !== "string" || key.length === 0) {
              throw new TypeError(
                `A lock is named by a non-empty string, got ${JSON.stringify(key)}`,
              );
            }
            if (locked.has(key)) return;
            await transaction`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
            locked.add(key);
          },
        };
        result = await work(unit);
      });
    } catch (error) {
      // An outage is answered here too, for callers that open units without a bus.
      throw postgresUnavailability(error) === undefined ? error : this.translateError(error);
    }
    await callbacks.runAll();
    return result;
  }

  /**
   * Turns a PostgreSQL error into a refusal: the database out of reach or too slow (connection
   * refused or lost, SQLSTATE class 08, 57P01-57P03, class 53, a connect, acquire, statement or
   * lock time-out) into `SERVICE_UNAVAILABLE` (503, with the `Retry-After` of the options); a
   * data exception (class 22: NUL in text, a value out of range, invalid text for a type) or a
   * key too large for an index (54000) into `INVALID_INPUT` (422); a serialization failure or a
   * deadlock (40001, 40P01) into `CONCURRENT_UPDATE` (409). Any other error is answered unchanged.
   */
  translateError(error: unknown): unknown {
    return translatePostgresError(error, { retryAfterSeconds: this.#retryAfterSeconds });
  }
}

/** The postgres.js transaction of a unit of work, or undefined when it is not on Postgres. */
export function transactionOf(unit: UnitOfWork | undefined): postgres.TransactionSql | undefined {
  const transaction = unit?.transaction;
  return isSql(transaction) ? (transaction as postgres.TransactionSql) : undefined;
}

/**
 * The SQL to write with: the transaction of the unit of work under way, else the given client.
 * Repositories call it for every statement, so that a command's writes commit together.
 *
 * @example
 * ```ts ignore
 * async save(appointment: Appointment): Promise<void> {
 *   await currentSql(this.sql)`insert into appointments ${this.sql(row(appointment))}`;
 * }
 * ```
 */
export function currentSql(sql: postgres.Sql): Sql {
  return transactionOf(currentUnitOfWork()) ?? sql;
}

function isSql(value: unknown): boolean {
  return typeof value === "function" &&
    typeof (value as { unsafe?: unknown }).unsafe === "function";
}
