import type { TransactionManager } from "@kit/kernel";
import { currentUnitOfWork, type UnitOfWork } from "@kit/kernel/internal";
import { DrizzleQueryError } from "drizzle-orm";
import { translatePostgresError } from "@kit/kernel/postgres";
import { runSqlUnitOfWork } from "@kit/jobs/sql";
import { type DrizzleExecutor, drizzleQuery, isDrizzleExecutor } from "./drizzle_query.ts";

/** A Drizzle PostgreSQL database, as kit uses it (`drizzle(client)` of any driver). */
export interface DrizzleDatabase extends DrizzleExecutor {
  /** Runs the work in a transaction; commits when it returns, rolls back when it throws. */
  // deno-lint-ignore no-explicit-any
  transaction<T>(work: (transaction: any) => Promise<T>): Promise<T>;
  /** The driver's client (`postgres.Sql`, `pg.Pool`), which the store listens on. */
  readonly $client?: unknown;
}

/**
 * Units of work on Drizzle: each is one `db.transaction`, handed to repositories (through
 * {@linkcode currentDrizzle}), the job store and the outbox as {@linkcode UnitOfWork.transaction}.
 * Commit callbacks run after COMMIT, never after ROLLBACK; `lock` takes a transaction-scoped
 * advisory lock.
 *
 * @example
 * ```ts ignore
 * const db = drizzle(postgres(url));
 * const application = composeApplication({ modules, transactions: new DrizzleTransactions(db) });
 * ```
 */
export class DrizzleTransactions implements TransactionManager {
  readonly #db: DrizzleDatabase;
  readonly #retryAfterSeconds: number;

  /**
   * Opens units of work on this database. `retryAfterSeconds` is the `Retry-After` of the
   * `SERVICE_UNAVAILABLE` an outage answers (default 5).
   */
  constructor(db: DrizzleDatabase, options: { retryAfterSeconds?: number } = {}) {
    this.#db = db;
    this.#retryAfterSeconds = options.retryAfterSeconds ?? 5;
  }

  /**
   * Turns a PostgreSQL error (Drizzle's `DrizzleQueryError` or the driver's own) into a refusal,
   * as `PostgresTransactions.translateError` does: an outage into `SERVICE_UNAVAILABLE`, a value
   * the database cannot hold into `INVALID_INPUT`, a serialization failure or a deadlock into
   * `CONCURRENT_UPDATE`; answers any other error unchanged.
   */
  translateError(error: unknown): unknown {
    // Drizzle wraps the driver's error, which carries the SQLSTATE, in `cause`.
    const cause = error instanceof DrizzleQueryError ? error.cause : error;
    const translated = translatePostgresError(cause, {
      retryAfterSeconds: this.#retryAfterSeconds,
    });
    return translated === cause ? error : translated;
  }

  /** Runs the work in a transaction; commits when it returns, rolls back when it throws. */
  run<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return runSqlUnitOfWork<T, DrizzleExecutor>(
      (inTransaction) => this.#db.transaction(inTransaction),
      drizzleQuery,
      work,
      drizzleClientOf(this.#db),
    );
  }
}

/**
 * The client a database's statements run on, which its units and its stores are told apart by:
 * the driver's (`$client`: a `postgres.Sql`, a `pg.Pool`), shared by every `drizzle()` of it; the
 * database itself when Drizzle exposes none.
 *
 * @param db The database.
 * @returns Its client.
 */
export function drizzleClientOf(db: DrizzleDatabase): object {
  const client = db.$client;
  return (typeof client === "object" && client !== null) || typeof client === "function"
    ? client
    : db;
}

/**
 * The Drizzle transaction of a unit of work, or undefined when it is not on Drizzle.
 *
 * @param unit The unit of work, if any.
 * @returns Its transaction.
 */
export function drizzleTransactionOf(unit: UnitOfWork | undefined): DrizzleExecutor | undefined {
  const transaction = unit?.transaction;
  return isDrizzleExecutor(transaction) ? transaction : undefined;
}

/**
 * What to write with: the Drizzle transaction of the unit of work under way, else the database.
 * Repositories call it for every statement, so that a command's writes and its jobs commit
 * together.
 *
 * @example
 * ```ts ignore
 * await currentDrizzle(db).insert(appointments).values(row);
 * ```
 *
 * @param db The database.
 * @returns The transaction under way, or the database.
 */
export function currentDrizzle<Database extends DrizzleDatabase>(db: Database): Database {
  return (drizzleTransactionOf(currentUnitOfWork()) as Database | undefined) ?? db;
}
