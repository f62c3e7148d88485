import type postgres from "postgres";
import { uuidv7 } from "../ids/id.ts";
import { CommitCallbacks } from "../unit_of_work/commit_callbacks.ts";
import type { TransactionManager, UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import { currentUnitOfWork } from "../unit_of_work/work_scope.ts";

/** A postgres.js client, or a transaction of one. */
export type Sql = postgres.Sql | postgres.TransactionSql;

/**
 * Units of work on PostgreSQL: each is one `sql.begin` transaction, handed to repositories, the
 * outbox and the job store through {@linkcode UnitOfWork.transaction}. Commit callbacks run after
 * COMMIT, never after ROLLBACK.
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

  /** Opens units of work on this client. */
  constructor(sql: postgres.Sql) {
    this.#sql = sql;
  }

  /** The client the units are opened on. */
  get sql(): postgres.Sql {
    return this.#sql;
  }

  /** Runs the work in a transaction; commits when it returns, rolls back when it throws. */
  async run<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    const callbacks = new CommitCallbacks();
    let result!: T;
    await this.#sql.begin(async (transaction) => {
      const unit: UnitOfWork = {
        id: uuidv7(),
        transaction,
        whenCommitted: (callback) => callbacks.add(callback),
      };
      result = await work(unit);
    });
    await callbacks.runAll();
    return result;
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
