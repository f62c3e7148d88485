import type postgres from "postgres";
import type { IntegrationEvent } from "../events/integration_event.ts";
import type {
  DeadDelivery,
  DeadDeliveryFilter,
  Outbox,
  OutboxBacklogParams,
  OutboxClaimParams,
  OutboxDelivery,
  OutboxFailParams,
  OutboxHandlerBacklog,
} from "../events/outbox.ts";
import { uuidv7 } from "../ids/id.ts";
import {
  checkUnitDatabase,
  isOnUnitDatabase,
  type UnitDatabaseWriter,
} from "../unit_of_work/unit_database.ts";
import type { UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import * as statements from "./outbox_statements.ts";
import { transactionOf } from "./postgres_transactions.ts";
import type { SqlStatement } from "./sql_statement.ts";

/**
 * The outbox on PostgreSQL: an event and its deliveries are inserted in the command's
 * transaction, in one statement that notifies `kit_outbox` on commit; relays claim deliveries in
 * batches with `FOR UPDATE SKIP LOCKED`, so two relays never deliver the same (event, handler) at
 * once; a delivery is marked done in the handler's transaction, in a savepoint of it when the
 * relay runs a batch in one transaction. Tables come from `migrateKernel`; the statements are
 * those `@kit/jobs`' `SqlOutbox` runs on other drivers (`outbox_statements.ts`), prepared. Its
 * writes in a unit of work (an append, a completion) are refused, with nothing written, when the
 * unit is on another database than this client's: a unit opened on this very client is written
 * in unchecked; one on another client, once that pair of clients is found on one database.
 *
 * @example
 * ```ts ignore
 * eventsPlugin({ outbox: new PostgresOutbox(sql), processedEvents: new PostgresProcessedEvents() });
 * ```
 */
export class PostgresOutbox implements Outbox {
  readonly #sql: postgres.Sql;
  readonly #writer: UnitDatabaseWriter;
  #subscriptions: ReadonlyMap<string, readonly string[]> = new Map();
  #savepoints = 0;
  readonly #sent = new WeakMap<UnitOfWork, Promise<unknown>[]>();

  /**
   * An outbox whose claims run on this client (the tables on its search path). A relay LISTENs
   * for appends on a connection of its own; `listen: false` leaves it to its poll interval
   * instead, for a database that serves one connection at a time (PGlite through
   * `pglite-socket`). The default is to listen, except on a client of one connection (`max: 1`),
   * which asks for no second one.
   */
  constructor(sql: postgres.Sql, options: { listen?: boolean } = {}) {
    this.#sql = sql;
    this.#writer = {
      storeName: "PostgresOutbox",
      transactionsName: "PostgresTransactions",
      client: sql,
      query: (statement) => run(sql, statement),
    };
    const listen = options.listen ?? (sql.options?.max ?? 10) > 1;
    if (!listen) this.listen = undefined;
  }

  /** Declares the handlers of each event type. */
  subscribe(subscriptions: ReadonlyMap<string, readonly string[]>): void {
    this.#subscriptions = subscriptions;
  }

  /**
   * Inserts the event and one delivery per handler in the unit's transaction, in one statement;
   * refused when the unit is on another database than this outbox's client (its relays would
   * never see the event).
   */
  async append(event: IntegrationEvent, unit: UnitOfWork): Promise<void> {
    const tx = requireTransaction(unit, `write event '${event.type}'`);
    if (!isOnUnitDatabase(this.#writer, unit)) await this.#checkUnit(unit, tx);
    await run(
      tx,
      statements.appendEvent(event, this.#subscriptions.get(event.type) ?? [], undefined),
    );
  }

  /**
   * Claims due deliveries in one statement of its own: earliest due first, those of one instant
   * in the order they were appended; per handler when `handlers` names them.
   */
  async claim(params: OutboxClaimParams): Promise<OutboxDelivery[]> {
    const rows = await run(this.#sql, statements.claimDeliveries(params));
    return [...rows]
      .sort((a, b) =>
        (a.due_at as Date).getTime() - (b.due_at as Date).getTime() || order(a.seq, b.seq)
      )
      .map((row) => ({
        handler: row.handler as string,
        attempt: row.attempts as number,
        event: Object.freeze({
          id: row.id as string,
          type: row.type as string,
          version: row.version as number,
          occurredAt: (row.occurred_at as Date).toISOString(),
          payload: row.payload as unknown,
          ...(row.correlation_id ? { correlationId: row.correlation_id as string } : {}),
          ...(row.causation_id ? { causationId: row.causation_id as string } : {}),
          ...(row.tenant_id ? { tenantId: row.tenant_id as string } : {}),
          ...(row.actor_id ? { actorId: row.actor_id as string } : {}),
        }),
      }));
  }

  /**
   * Marks the deliveries done in the handlers' transaction, one statement per handler; refused
   * when the transaction is on another database than this outbox's client.
   */
  async complete(deliveries: readonly OutboxDelivery[], unit: UnitOfWork): Promise<void> {
    const sent = this.#sent.get(unit);
    if (sent !== undefined) {
      this.#sent.delete(unit);
      await Promise.all(sent);
    }
    if (deliveries.length === 0) return;
    const tx = requireTransaction(unit, `complete event '${deliveries[0]!.event.type}'`);
    if (!isOnUnitDatabase(this.#writer, unit)) await this.#checkUnit(unit, tx);
    for (const [handler, list] of byHandler(deliveries)) {
      await run(tx, statements.completeDeliveries(handler, list.map((d) => d.event.id)));
    }
  }

  /** Gives the delivery back for a later attempt, or parks it as dead, unless claimed again. */
  async fail(delivery: OutboxDelivery, params: OutboxFailParams): Promise<void> {
    await run(
      this.#sql,
      statements.failDelivery(delivery.event.id, delivery.handler, delivery.attempt, params),
    );
  }

  /** Gives claimed deliveries back, their attempt uncounted, and wakes the other relays. */
  async release(deliveries: readonly OutboxDelivery[]): Promise<void> {
    for (const [handler, list] of byHandler(deliveries)) {
      const attempts = Object.fromEntries(list.map((d) => [d.event.id, d.attempt]));
      await run(this.#sql, statements.releaseDeliveries(handler, attempts, undefined));
    }
  }

  /** The dead deliveries the filter covers, oldest event first. */
  async deadDeliveries(params: DeadDeliveryFilter & { limit?: number }): Promise<DeadDelivery[]> {
    const rows = await run(this.#sql, statements.listDeadDeliveries(params, params.limit ?? 100));
    return rows.map((row) => ({
      eventId: row.event_id as string,
      eventType: row.type as string,
      handler: row.handler as string,
      ...(row.tenant_id ? { tenantId: row.tenant_id as string } : {}),
      attempts: row.attempts as number,
      ...(row.last_error !== null ? { lastError: row.last_error as string } : {}),
      deadAt: row.dead_at as Date,
    }));
  }

  /** Revives the dead deliveries the filter covers (due now, attempts back to zero) and notifies. */
  async retryDead(params: DeadDeliveryFilter & { now: Date }): Promise<number> {
    const rows = await run(
      this.#sql,
      statements.reviveDeadDeliveries(params, params.now, undefined),
    );
    return rows.length;
  }

  /**
   * The deliveries not delivered yet, by handler: two grouped reads, of the pending deliveries
   * (index `kit_outbox_deliveries_pending`) and of the dead ones (`kit_outbox_deliveries_dead`).
   */
  async backlog(params: OutboxBacklogParams = {}): Promise<OutboxHandlerBacklog[]> {
    const pending = await run(this.#sql, statements.pendingBacklog(params));
    const dead = await run(this.#sql, statements.deadBacklog(params));
    const byHandler = new Map<string, OutboxHandlerBacklog>();
    for (const row of pending) {
      byHandler.set(row.handler as string, {
        handler: row.handler as string,
        pending: row.pending as number,
        oldestPendingAt: new Date(row.oldest as Date),
        retrying: row.retrying as number,
        dead: 0,
      });
    }
    for (const row of dead) {
      const handler = row.handler as string;
      byHandler.set(handler, {
        ...(byHandler.get(handler) ?? { handler, pending: 0, retrying: 0 }),
        dead: row.dead as number,
      });
    }
    return [...byHandler.keys()].sort().map((handler) => byHandler.get(handler)!);
  }

  /**
   * Calls `onAppended` when deliveries of this schema are committed or revived (LISTEN on
   * `kit_outbox`, on a connection of its own), and each time listening resumes after the
   * connection was lost; answers the function that stops listening.
   */
  listen?: (onAppended: () => void) => Promise<() => Promise<void>> = async (onAppended) => {
    const [{ schema }] = await this.#sql`select current_schema() as schema` as unknown as [
      { schema: string },
    ];
    const subscription = await this.#sql.listen(
      statements.outboxChannel,
      (payload) => {
        if (payload === schema) onAppended();
      },
      onAppended,
    );
    return () => subscription.unlisten();
  };

  /**
   * Runs `work` with a unit of its own nested in the unit's transaction: its writes are undone and
   * its commit callbacks dropped when it throws, while the transaction goes on; its callbacks join
   * the unit's when it returns; its named locks are advisory locks of the transaction, released if
   * it is undone. The savepoint is opened when `work` first reaches the transaction (so a handler
   * that writes nothing costs no statement), and its SAVEPOINT and RELEASE are sent without
   * waiting for their answers: the next statement follows them on the connection, and
   * {@linkcode PostgresOutbox.complete} waits for them.
   */
  async savepoint<T>(unit: UnitOfWork, work: (nested: UnitOfWork) => Promise<T>): Promise<T> {
    const tx = requireTransaction(unit, "run a savepoint");
    const name = `kit_delivery_${++this.#savepoints}`;
    let opened: Promise<unknown> | undefined;
    const open = (): postgres.TransactionSql => {
      opened ??= this.#send(unit, tx, `savepoint ${name}`);
      return tx;
    };
    const callbacks: (() => unknown)[] = [];
    const locked = new Set<string>();
    const nested: UnitOfWork = {
      id: uuidv7(),
      get transaction() {
        return open();
      },
      whenCommitted: (callback) => {
        if (typeof callback !== "function") {
          throw new TypeError(`whenCommitted takes a function, got ${typeof callback}`);
        }
        callbacks.push(callback);
      },
      lock: async (key) => {
        if (typeof key !== "string" || key.length === 0) {
          throw new TypeError(`A lock is named by a non-empty string, got ${JSON.stringify(key)}`);
        }
        if (locked.has(key)) return;
        await open()`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
        locked.add(key);
      },
    };
    let result: T;
    try {
      result = await work(nested);
    } catch (error) {
      if (opened !== undefined) {
        await opened.catch(() => {});
        // Failing (the connection lost), the transaction fails at commit: the handler's error
        // is the one to report here.
        await tx.unsafe(`rollback to savepoint ${name}`).catch(() => {});
      }
      throw error;
    }
    if (opened !== undefined) this.#send(unit, tx, `release savepoint ${name}`);
    for (const callback of callbacks) unit.whenCommitted(callback);
    return result;
  }

  /** Rejects, naming both databases, when the unit's transaction is not on this client's database. */
  #checkUnit(unit: UnitOfWork, tx: postgres.TransactionSql): Promise<void> {
    return checkUnitDatabase(this.#writer, unit, (statement) => run(tx, statement));
  }

  /** Sends a statement now without waiting for it; `complete` waits for the unit's. */
  #send(unit: UnitOfWork, tx: postgres.TransactionSql, statement: string): Promise<unknown> {
    const sent = tx.unsafe(statement).execute();
    sent.catch(() => {});
    const list = this.#sent.get(unit) ?? [];
    list.push(sent);
    this.#sent.set(unit, list);
    return sent;
  }
}

/** Runs one of the outbox's statements, prepared (unless the client was made with `prepare: false`). */
function run(
  sql: postgres.Sql | postgres.TransactionSql,
  statement: SqlStatement,
): Promise<postgres.RowList<postgres.Row[]>> {
  const params = statement.params as postgres.ParameterOrJSON<never>[];
  return sql.unsafe(statement.text, params, { prepare: true });
}

/** Compares two `seq` (int8, as text; none before migration 3, sorted last as SQL does). */
function order(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const [x, y] = [BigInt(a as string), BigInt(b as string)];
  return x < y ? -1 : x > y ? 1 : 0;
}

function byHandler(deliveries: readonly OutboxDelivery[]): Map<string, OutboxDelivery[]> {
  const groups = new Map<string, OutboxDelivery[]>();
  for (const delivery of deliveries) {
    const list = groups.get(delivery.handler) ?? [];
    list.push(delivery);
    groups.set(delivery.handler, list);
  }
  return groups;
}

function requireTransaction(unit: UnitOfWork, what: string): postgres.TransactionSql {
  const tx = transactionOf(unit);
  if (tx === undefined) {
    throw new Error(
      `PostgresOutbox needs a Postgres unit of work to ${what}: compose the application with PostgresTransactions`,
    );
  }
  return tx;
}
