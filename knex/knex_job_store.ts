import { consoleLogger, type Logger } from "@kit/kernel";
import type { UnitOfWork } from "@kit/kernel/internal";
import {
  type JobSqlDriver,
  type ListenConnection,
  listenOnConnection,
  SqlJobStore,
  type SqlJobStoreOptions,
} from "@kit/jobs/sql";
import type { Knex } from "knex";
import { knexQuery } from "./knex_query.ts";
import { knexTransactionOf } from "./knex_transactions.ts";

/**
 * Jobs on PostgreSQL through Knex (`pg`), in the table made by `createJobTable(knex, schema)`. An
 * enqueue writes in the caller's Knex transaction, the one of the unit of work
 * ({@linkcode KnexTransactions}): the job exists if and only if the use case commits. A claim
 * takes due jobs with `FOR UPDATE SKIP LOCKED` in one statement of its own; a committed insert
 * notifies `kit_jobs`, and the store listens on a `pg` connection of its own, outside the pool,
 * so idle workers start at once.
 *
 * @example
 * ```ts ignore
 * const db = knex({ client: "pg", connection: url });
 * await createJobTable(db, "scheduling");
 * const store = new KnexJobStore(db, { schema: "scheduling" });
 * ```
 */
export class KnexJobStore extends SqlJobStore {
  /** A store on this instance. */
  constructor(knex: Knex, options: SqlJobStoreOptions = {}) {
    super(knexJobDriver(knex, options.logger ?? consoleLogger()), options);
  }
}

interface RawConnections {
  acquireRawConnection(): Promise<ListenConnection>;
  destroyRawConnection(connection: ListenConnection): Promise<void>;
}

function knexJobDriver(knex: Knex, logger: Logger): JobSqlDriver {
  const client = knex.client as RawConnections;
  return {
    storeName: "KnexJobStore",
    transactionsName: "KnexTransactions",
    query: knexQuery(knex),
    inUnit: (unit: UnitOfWork) => {
      const transaction = knexTransactionOf(unit);
      return transaction === undefined ? undefined : knexQuery(transaction);
    },
    listen: async (channel, onNotify) => {
      const connection = await client.acquireRawConnection();
      const release = () => client.destroyRawConnection(connection);
      return await listenOnConnection(connection, release, channel, onNotify, logger);
    },
  };
}
