import { type IntegrationEvent, type ProcessedEvents, uuidv7 } from "@kit/kernel";
import { outboxStatements as statements, type UnitOfWork } from "@kit/kernel/internal";
import type {
  DeadDelivery,
  DeadDeliveryFilter,
  Outbox,
  OutboxBacklogParams,
  OutboxClaimParams,
  OutboxDelivery,
  OutboxFailParams,
  OutboxHandlerBacklog,
} from "@kit/kernel/outbox";
import { driverInSchema } from "./driver_in_schema.ts";
import type { JobSqlDriver, SqlQuery, SqlRow } from "./job_sql_driver.ts";
import { JobRowReader } from "./job_rows.ts";
import { queryInUnit } from "./unit_database.ts";

/**
 * A driver an {@linkcode SqlOutbox} runs on: a job store's, and, where the driver can, a way to
 * send a statement in a unit's transaction at once, queued on its connection before any statement
 * issued after the call (postgres.js and node-postgres queue synchronously). With it, a delivery's
 * savepoint is opened only when its handler first reaches the transaction, without waiting, as
 * `PostgresOutbox` does; without it, before the handler runs, waited for.
 */
export interface OutboxSqlDriver extends JobSqlDriver {
  /** The function that sends a statement in the unit's transaction now, if the driver can. */
  readonly sendInUnit?: (unit: UnitOfWork) => ((text: string) => Promise<unknown>) | undefined;
}

/** How an {@linkcode SqlOutbox} finds its tables and learns of appends. */
export interface SqlOutboxOptions {
  /**
   * The schema of `kit_outbox` and `kit_outbox_deliveries` (a plain identifier); default: the
   * connection's search path.
   */
  readonly schema?: string;
  /** `false`: relays poll instead of listening (default: listen where the driver can). */
  readonly listen?: boolean;
}

/**
 * The kernel's outbox on PostgreSQL through any driver (Drizzle, Knex): the statements of
 * `PostgresOutbox`, run by a {@linkcode JobSqlDriver}. An event and its deliveries are inserted
 * in the unit of work's transaction (the driver's), in one statement that notifies `kit_outbox`
 * on commit: the event exists if and only if the use case commits. Relays claim deliveries in
 * one statement with `FOR UPDATE SKIP LOCKED`, so two relays never deliver the same (event,
 * handler) at once; a delivery is marked done in its handler's transaction, in a savepoint of it
 * when the relay delivers a batch in one transaction. The tables come from `kernelMigrations`
 * (`createKernelTablesIn`).
 */
export class SqlOutbox implements Outbox {
  readonly #driver: OutboxSqlDriver;
  readonly #schema: string | undefined;
  #subscriptions: ReadonlyMap<string, readonly string[]> = new Map();
  #savepoints = 0;
  readonly #sent = new WeakMap<UnitOfWork, Promise<unknown>[]>();

  /** An outbox on this driver. */
  constructor(driver: OutboxSqlDriver, options: SqlOutboxOptions = {}) {
    this.#schema = options.schema;
    this.#driver = options.schema === undefined ? driver : inSchema(driver, options.schema);
    if (options.listen === false || driver.listen === undefined) this.listen = undefined;
  }

  /** Declares the handlers of each event type. */
  subscribe(subscriptions: ReadonlyMap<string, readonly string[]>): void {
    this.#subscriptions = subscriptions;
  }

  /** Inserts the event and one delivery per handler in the unit's transaction, in one statement. */
  async append(event: IntegrationEvent, unit: UnitOfWork): Promise<void> {
    const query = this.#inUnit(unit, `write event '${event.type}'`);
    const handlers = this.#subscriptions.get(event.type) ?? [];
    await query(statements.appendEvent(event, handlers, this.#schema));
  }

  /**
   * Claims due deliveries in one statement of its own: earliest due first, those of one instant
   * in the order they were appended; per handler when `handlers` names them.
   */
  async claim(params: OutboxClaimParams): Promise<OutboxDelivery[]> {
    const statement = statements.claimDeliveries(params);
    const rows = (await this.#driver.query(statement)).map((row) => {
      const read = new JobRowReader(row, statement.name);
      return { row, dueAt: read.date("due_at").getTime() };
    });
    return rows
      .sort((a, b) => a.dueAt - b.dueAt || order(a.row.seq, b.row.seq))
      .map(({ row }) => deliveryOf(row, statement.name));
  }

  /** Marks the deliveries done in the handlers' transaction, one statement per handler. */
  async complete(deliveries: readonly OutboxDelivery[], unit: UnitOfWork): Promise<void> {
    const sent = this.#sent.get(unit);
    if (sent !== undefined) {
      this.#sent.delete(unit);
      await Promise.all(sent);
    }
    if (deliveries.length === 0) return;
    const query = this.#inUnit(unit, `complete event '${deliveries[0]!.event.type}'`);
    for (const [handler, list] of byHandler(deliveries)) {
      await query(statements.completeDeliveries(handler, list.map((d) => d.event.id)));
    }
  }

  /** Gives the delivery back for a later attempt, or parks it as dead, unless claimed again. */
  async fail(delivery: OutboxDelivery, params: OutboxFailParams): Promise<void> {
    await this.#driver.query(
      statements.failDelivery(delivery.event.id, delivery.handler, delivery.attempt, params),
    );
  }

  /** Gives claimed deliveries back, their attempt uncounted, and wakes the other relays. */
  async release(deliveries: readonly OutboxDelivery[]): Promise<void> {
    for (const [handler, list] of byHandler(deliveries)) {
      const attempts = Object.fromEntries(list.map((d) => [d.event.id, d.attempt]));
      await this.#driver.query(statements.releaseDeliveries(handler, attempts, this.#schema));
    }
  }

  /** The dead deliveries the filter covers, oldest event first. */
  async deadDeliveries(params: DeadDeliveryFilter & { limit?: number }): Promise<DeadDelivery[]> {
    const statement = statements.listDeadDeliveries(params, params.limit ?? 100);
    const rows = await this.#driver.query(statement);
    return rows.map((row) => {
      const read = new JobRowReader(row, statement.name);
      const tenantId = read.optionalText("tenant_id");
      const lastError = read.optionalText("last_error");
      return {
        eventId: read.text("event_id"),
        eventType: read.text("type"),
        handler: read.text("handler"),
        ...(tenantId ? { tenantId } : {}),
        attempts: read.integer("attempts"),
        ...(lastError !== undefined ? { lastError } : {}),
        deadAt: read.date("dead_at"),
      };
    });
  }

  /** Revives the dead deliveries the filter covers (due now, attempts back to zero) and notifies. */
  async retryDead(params: DeadDeliveryFilter & { now: Date }): Promise<number> {
    const rows = await this.#driver.query(
      statements.reviveDeadDeliveries(params, params.now, this.#schema),
    );
    return rows.length;
  }

  /** The deliveries not delivered yet, by handler: pending ones, then dead ones, grouped. */
  async backlog(params: OutboxBacklogParams = {}): Promise<OutboxHandlerBacklog[]> {
    const pendingStatement = statements.pendingBacklog(params);
    const pending = await this.#driver.query(pendingStatement);
    const dead = await this.#driver.query(statements.deadBacklog(params));
    const byName = new Map<string, OutboxHandlerBacklog>();
    for (const row of pending) {
      const read = new JobRowReader(row, pendingStatement.name);
      const handler = read.text("handler");
      byName.set(handler, {
        handler,
        pending: read.integer("pending"),
        oldestPendingAt: read.date("oldest"),
        retrying: read.integer("retrying"),
        dead: 0,
      });
    }
    for (const row of dead) {
      const read = new JobRowReader(row, "deadBacklog");
      const handler = read.text("handler");
      byName.set(handler, {
        ...(byName.get(handler) ?? { handler, pending: 0, retrying: 0 }),
        dead: read.integer("dead"),
      });
    }
    return [...byName.keys()].sort().map((handler) => byName.get(handler)!);
  }

  /**
   * Calls `onAppended` when deliveries of this outbox's schema are committed or revived (LISTEN
   * on `kit_outbox`, on a connection of the driver's own); answers the function that stops.
   * Absent when the driver cannot listen or `listen: false` was given: relays poll.
   */
  listen?: (onAppended: () => void) => Promise<() => Promise<void>> = async (onAppended) => {
    const schema = this.#schema ?? await this.#currentSchema();
    return await this.#driver.listen!(statements.outboxChannel, (payload) => {
      if (payload === schema) onAppended();
    });
  };

  /**
   * Runs `work` with a unit of its own nested in the unit's transaction, in a savepoint: its
   * writes are undone and its commit callbacks dropped when it throws, while the transaction goes
   * on; its callbacks join the unit's when it returns; its named locks are advisory locks of the
   * transaction, released if it is undone. The nested unit's `transaction` is the unit's (the
   * driver's transaction), so repositories write in the savepoint. Where the driver sends
   * statements at once (`OutboxSqlDriver.sendInUnit`), the savepoint is opened when `work` first
   * reaches the transaction (a handler that writes nothing costs no statement), and its SAVEPOINT
   * and RELEASE are sent without waiting (`complete` waits for them); elsewhere it is opened
   * before `work` runs, waited for.
   */
  async savepoint<T>(unit: UnitOfWork, work: (nested: UnitOfWork) => Promise<T>): Promise<T> {
    const query = this.#inUnit(unit, "run a savepoint");
    const name = `kit_delivery_${++this.#savepoints}`;
    const run = (statementName: string, text: string) =>
      query({ name: statementName, text, params: [] });
    const send = this.#driver.sendInUnit?.(unit);
    let opened: Promise<unknown> | undefined;
    if (send === undefined) {
      await run("savepoint", `savepoint ${name}`);
      opened = Promise.resolve();
    }
    const open = (): void => {
      opened ??= this.#send(unit, send!, `savepoint ${name}`);
    };
    const callbacks: (() => unknown)[] = [];
    const locked = new Set<string>();
    const nested: UnitOfWork = {
      id: uuidv7(),
      get transaction() {
        open();
        return unit.transaction;
      },
      whenCommitted: (callback) => {
        if (typeof callback !== "function") {
          throw new TypeError(`whenCommitted takes a function, got ${typeof callback}`);
        }
        callbacks.push(callback);
      },
      // Its own set: a lock taken in a savepoint rolled back is released with it.
      lock: async (key) => {
        if (typeof key !== "string" || key.length === 0) {
          throw new TypeError(`A lock is named by a non-empty string, got ${JSON.stringify(key)}`);
        }
        if (locked.has(key)) return;
        open();
        await query({
          name: "lockUnit",
          text: "select pg_advisory_xact_lock(hashtextextended($1, 0))",
          params: [key],
        });
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
        // Sent as it is where the driver can: a text of its own per savepoint, not to prepare.
        const rollback = `rollback to savepoint ${name}`;
        await (send ?? ((text) => run("rollbackToSavepoint", text)))(rollback).catch(() => {});
      }
      throw error;
    }
    if (opened !== undefined) {
      if (send === undefined) await run("releaseSavepoint", `release savepoint ${name}`);
      else this.#send(unit, send, `release savepoint ${name}`);
    }
    for (const callback of callbacks) unit.whenCommitted(callback);
    return result;
  }

  /** Sends a statement now without waiting for it; `complete` waits for the unit's. */
  #send(
    unit: UnitOfWork,
    send: (text: string) => Promise<unknown>,
    text: string,
  ): Promise<unknown> {
    const sent = send(text);
    sent.catch(() => {});
    const list = this.#sent.get(unit) ?? [];
    list.push(sent);
    this.#sent.set(unit, list);
    return sent;
  }

  async #currentSchema(): Promise<string> {
    const [row] = await this.#driver.query({
      name: "currentSchema",
      text: "select current_schema() as schema",
      params: [],
    });
    return new JobRowReader(row ?? {}, "currentSchema").text("schema");
  }

  /**
   * The query of the unit's transaction, refused when the unit is on another database than the
   * outbox's client (`queryInUnit`): its relays would never see an event appended there.
   */
  #inUnit(unit: UnitOfWork, what: string): SqlQuery {
    const query = this.#driver.inUnit(unit);
    if (query === undefined) {
      throw new Error(
        `${this.#driver.storeName} needs a unit of work of its driver to ${what}: compose the application with ${this.#driver.transactionsName}`,
      );
    }
    return queryInUnit(this.#driver, unit, query);
  }
}

/**
 * Processed events on PostgreSQL through any driver: the (handler, event) pair is inserted behind
 * the primary key of `kit_processed_events`, in the consumer's transaction (the driver's), as
 * `PostgresProcessedEvents` does.
 */
export class SqlProcessedEvents implements ProcessedEvents {
  readonly #driver: JobSqlDriver;

  /** Processed events on this driver; `schema` names the table's (default: the search path). */
  constructor(driver: JobSqlDriver, options: { schema?: string } = {}) {
    this.#driver = options.schema === undefined ? driver : inSchema(driver, options.schema);
  }

  /** Inserts the pair in the unit's transaction; false when it is there already. */
  async markProcessed(handler: string, eventId: string, unit: UnitOfWork): Promise<boolean> {
    const query = this.#driver.inUnit(unit);
    if (query === undefined) {
      throw new Error(
        `${this.#driver.storeName} needs a unit of work of its driver to record '${handler}': compose the application with ${this.#driver.transactionsName}`,
      );
    }
    return (await query(statements.markEventProcessed(handler, eventId))).length === 1;
  }
}

function deliveryOf(row: SqlRow, statement: string): OutboxDelivery {
  const read = new JobRowReader(row, statement);
  const correlationId = read.optionalText("correlation_id");
  const causationId = read.optionalText("causation_id");
  const tenantId = read.optionalText("tenant_id");
  const actorId = read.optionalText("actor_id");
  return {
    handler: read.text("handler"),
    attempt: read.integer("attempts"),
    event: Object.freeze({
      id: read.text("id"),
      type: read.text("type"),
      version: read.integer("version"),
      occurredAt: read.date("occurred_at").toISOString(),
      payload: row.payload,
      ...(correlationId ? { correlationId } : {}),
      ...(causationId ? { causationId } : {}),
      ...(tenantId ? { tenantId } : {}),
      ...(actorId ? { actorId } : {}),
    }),
  };
}

/** Compares two `seq` (int8, as text or a number; none before migration 3, sorted last). */
function order(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
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

const tables = /\bkit_(outbox_deliveries|outbox|processed_events)\b(?!')/g;

/** The driver whose statements name the kernel's tables in `schema`. */
function inSchema(driver: JobSqlDriver, schema: string): JobSqlDriver {
  return driverInSchema(
    driver,
    schema,
    "An outbox's",
    (text, schema) => text.replace(tables, `${schema}.kit_$1`),
  );
}
