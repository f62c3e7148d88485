import type { UnitOfWork } from "@kit/kernel/internal";

/** A row as a driver answers it: column name to decoded value. */
export type SqlRow = Readonly<Record<string, unknown>>;

/**
 * Runs SQL text with positional parameters (`$1`, `$2`, ...) and answers its rows as objects.
 * `name` names the statement (one text per name for the static ones): a driver may keep it
 * prepared.
 */
export type SqlQuery = (
  statement: { readonly name: string; readonly text: string; readonly params: readonly unknown[] },
) => Promise<readonly SqlRow[]>;

/**
 * What an {@linkcode SqlJobStore} runs its statements on: a PostgreSQL client through one driver
 * (postgres.js, Drizzle, Knex). Timestamps may come back as `Date`s or as PostgreSQL's text;
 * `jsonb` decoded; `integer` as numbers.
 */
export interface JobSqlDriver {
  /** The store's name in error messages (`KnexJobStore`). */
  readonly storeName: string;
  /** The transaction manager to compose the application with, named in error messages. */
  readonly transactionsName: string;
  /**
   * The client the driver's statements run on (the `postgres.Sql`, the Drizzle client, the Knex
   * instance): the one a transaction manager records for its units (`recordUnitClient` of
   * `@kit/kernel/internal`). A unit opened on this very client is written in unchecked; a unit on
   * another client, or on one not recorded, is written in only once its transaction is found on
   * this client's database (asked once per pair of clients, see `queryInUnit`).
   */
  readonly client: object;
  /** Runs a statement on the client, outside any unit of work (a transaction of its own). */
  readonly query: SqlQuery;
  /**
   * The query of the unit of work's transaction, or `undefined` when the unit is not one of this
   * driver's (then the store refuses to write, rather than write outside the caller's
   * transaction).
   */
  inUnit(unit: UnitOfWork): SqlQuery | undefined;
  /**
   * Listens on a channel (LISTEN on a connection of its own); answers the function that stops.
   * Absent where the driver cannot: idle workers then poll.
   */
  readonly listen?: (
    channel: string,
    onNotify: (payload: string) => void,
  ) => Promise<() => Promise<void>>;
}
