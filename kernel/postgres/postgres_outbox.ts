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
import type { UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import { transactionOf } from "./postgres_transactions.ts";

/** The channel a committed append or a revival notifies, with the schema as payload. */
export const outboxChannel = "kit_outbox";

/**
 * The outbox on PostgreSQL: an event and its deliveries are inserted in the command's
 * transaction, in one statement that notifies `kit_outbox` on commit; relays claim deliveries in
 * batches with `FOR UPDATE SKIP LOCKED`, so two relays never deliver the same (event, handler) at
 * once; a delivery is marked done in the handler's transaction, in a savepoint of it when the
 * relay runs a batch in one transaction. Tables come from `migrateKernel`.
 *
 * @example
 * ```ts ignore
 * eventsPlugin({ outbox: new PostgresOutbox(sql), processedEvents: new PostgresProcessedEvents() });
 * ```
 */
export class PostgresOutbox implements Outbox {
  readonly #sql: postgres.Sql;
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
    const listen = options.listen ?? (sql.options?.max ?? 10) > 1;
    if (!listen) this.listen = undefined;
  }

  /** Declares the handlers of each event type. */
  subscribe(subscriptions: ReadonlyMap<string, readonly string[]>): void {
    this.#subscriptions = subscriptions;
  }

  /** Inserts the event and one delivery per handler in the unit's transaction, in one statement. */
  async append(event: IntegrationEvent, unit: UnitOfWork): Promise<void> {
    const tx = requireTransaction(unit, `write event '${event.type}'`);
    const handlers = this.#subscriptions.get(event.type) ?? [];
    const inserted = tx`
      insert into kit_outbox
        (id, type, version, occurred_at, payload, correlation_id, causation_id, tenant_id, actor_id)
      values (${event.id}, ${event.type}, ${event.version}, ${event.occurredAt},
        ${tx.json(event.payload as postgres.JSONValue)}, ${event.correlationId ?? null},
        ${event.causationId ?? null}, ${event.tenantId ?? null}, ${event.actorId ?? null})`;
    if (handlers.length === 0) {
      await inserted;
      return;
    }
    // Handlers go as JSON text, not sql.array: a fresh client's first array can fail to encode.
    await tx`
      with event as (${inserted} returning id, occurred_at)
      insert into kit_outbox_deliveries (event_id, handler, due_at)
      select event.id, handler, event.occurred_at
      from event, jsonb_array_elements_text(${JSON.stringify(handlers)}::text::jsonb) as handler
      returning pg_notify(${outboxChannel}, current_schema())`;
  }

  /**
   * Claims due deliveries in one statement of its own: earliest due first, those of one instant
   * in the order they were appended; per handler when `handlers` names them.
   */
  async claim(params: OutboxClaimParams): Promise<OutboxDelivery[]> {
    const { now, limit } = params;
    const lockedUntil = new Date(now.getTime() + params.leaseMs);
    // The rows are locked and updated by ctid: a join back on the key lets the planner scan
    // every delivery ever kept.
    const due = (tx: postgres.TransactionSql) =>
      params.handlers === undefined
        ? tx`
        select ctid from kit_outbox_deliveries
        where delivered_at is null and dead_at is null and due_at <= ${now}
          and (locked_until is null or locked_until <= ${now})
        order by due_at, seq
        limit ${limit}
        for update skip locked`
        : tx`
        select d.ctid
        from jsonb_to_recordset(${
          JSON.stringify(Object.entries(params.handlers).map(([handler, n]) => ({ handler, n })))
        }::text::jsonb) as wanted(handler text, n integer)
        cross join lateral (
          select ctid, due_at, seq from kit_outbox_deliveries
          where handler = wanted.handler and delivered_at is null and dead_at is null
            and due_at <= ${now} and (locked_until is null or locked_until <= ${now})
          order by due_at, seq
          limit wanted.n
          for update skip locked
        ) d
        order by d.due_at, d.seq
        limit ${limit}`;
    // A claim commits without waiting for the disk: lost in a crash, the deliveries are claimed
    // again with the same attempt; a handler's commit, which waits, makes the claim durable too.
    const [, rows] = await this.#sql.begin((tx) => [
      tx`set local synchronous_commit = off`,
      tx`
      update kit_outbox_deliveries d
      set attempts = d.attempts + 1, locked_until = ${lockedUntil}
      from kit_outbox o
      where d.ctid = any(array(${due(tx)})) and o.id = d.event_id
      returning d.handler, d.attempts, d.due_at, d.seq, o.id, o.type, o.version, o.occurred_at,
        o.payload, o.correlation_id, o.causation_id, o.tenant_id, o.actor_id`,
    ]) as unknown as [unknown, postgres.RowList<postgres.Row[]>];
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

  /** Marks the deliveries done in the handlers' transaction, in one statement. */
  async complete(deliveries: readonly OutboxDelivery[], unit: UnitOfWork): Promise<void> {
    const sent = this.#sent.get(unit);
    if (sent !== undefined) {
      this.#sent.delete(unit);
      await Promise.all(sent);
    }
    if (deliveries.length === 0) return;
    const tx = requireTransaction(unit, `complete event '${deliveries[0]!.event.type}'`);
    for (const [handler, ids] of byHandler(deliveries)) {
      await tx`
        update kit_outbox_deliveries set delivered_at = now(), locked_until = null
        where handler = ${handler} and event_id = any(${
        textArray(tx, ids.map((d) => d.event.id))
      })`;
    }
  }

  /** Gives the delivery back for a later attempt, or parks it as dead, unless claimed again. */
  async fail(delivery: OutboxDelivery, params: OutboxFailParams): Promise<void> {
    const retryAt = params.retryAt ?? null;
    await this.#sql`
      update kit_outbox_deliveries
      set locked_until = null, last_error = ${params.error},
        due_at = coalesce(${retryAt}::timestamptz, due_at),
        dead_at = case when ${retryAt}::timestamptz is null then ${params.now}::timestamptz end
      where event_id = ${delivery.event.id} and handler = ${delivery.handler}
        and attempts = ${delivery.attempt} and delivered_at is null and dead_at is null`;
  }

  /** Gives claimed deliveries back, their attempt uncounted, and wakes the other relays. */
  async release(deliveries: readonly OutboxDelivery[]): Promise<void> {
    for (const [handler, list] of byHandler(deliveries)) {
      const attempts = JSON.stringify(Object.fromEntries(list.map((d) => [d.event.id, d.attempt])));
      await this.#sql`
        update kit_outbox_deliveries
        set locked_until = null, attempts = attempts - 1
        where handler = ${handler} and event_id = any(${
        textArray(this.#sql, list.map((d) => d.event.id))
      })
          and attempts = (${attempts}::text::jsonb ->> event_id)::integer
          and delivered_at is null and dead_at is null
        returning pg_notify(${outboxChannel}, current_schema())`;
    }
  }

  /** The dead deliveries the filter covers, oldest event first. */
  async deadDeliveries(params: DeadDeliveryFilter & { limit?: number }): Promise<DeadDelivery[]> {
    const rows = await this.#sql`
      select d.event_id, o.type, d.handler, o.tenant_id, d.attempts, d.last_error, d.dead_at
      from kit_outbox_deliveries d join kit_outbox o on o.id = d.event_id
      where d.dead_at is not null and ${this.#covers(params)}
      order by d.event_id, d.handler
      limit ${params.limit ?? 100}`;
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
    const rows = await this.#sql`
      update kit_outbox_deliveries d
      set dead_at = null, attempts = 0, due_at = ${params.now}, locked_until = null
      from kit_outbox o
      where o.id = d.event_id and d.dead_at is not null and ${this.#covers(params)}
      returning pg_notify(${outboxChannel}, current_schema())`;
    return rows.length;
  }

  /**
   * The deliveries not delivered yet, by handler: two grouped reads, of the pending deliveries
   * (index `kit_outbox_deliveries_pending`) and of the dead ones (`kit_outbox_deliveries_dead`).
   */
  async backlog(params: OutboxBacklogParams = {}): Promise<OutboxHandlerBacklog[]> {
    const pending = await this.#sql`
      select d.handler, count(*)::integer as pending, min(o.occurred_at) as oldest,
        (count(*) filter (where d.last_error is not null))::integer as retrying
      from kit_outbox_deliveries d join kit_outbox o on o.id = d.event_id
      where d.delivered_at is null and d.dead_at is null and ${this.#covers(params)}
      group by d.handler`;
    const dead = await this.#sql`
      select d.handler, count(*)::integer as dead
      from kit_outbox_deliveries d join kit_outbox o on o.id = d.event_id
      where d.dead_at is not null and ${this.#covers(params)}
      group by d.handler`;
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
      outboxChannel,
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

  /** Sends a statement now without waiting for it; `complete` waits for the unit's. */
  #send(unit: UnitOfWork, tx: postgres.TransactionSql, statement: string): Promise<unknown> {
    const sent = tx.unsafe(statement).execute();
    sent.catch(() => {});
    const list = this.#sent.get(unit) ?? [];
    list.push(sent);
    this.#sent.set(unit, list);
    return sent;
  }

  #covers(filter: DeadDeliveryFilter & OutboxBacklogParams): postgres.PendingQuery<postgres.Row[]> {
    const sql = this.#sql;
    const tenants = filter.tenants === undefined ? null : JSON.stringify(filter.tenants);
    return sql`(${filter.eventId ?? null}::text is null or d.event_id = ${filter.eventId ?? null})
      and (${filter.handler ?? null}::text is null or d.handler = ${filter.handler ?? null})
      and (${tenants}::text is null
        or o.tenant_id in (select jsonb_array_elements_text(${tenants}::text::jsonb)))`;
  }
}

/**
 * A text[] built by the server from JSON text: a key lookup `= any(...)` that uses the index,
 * without sql.array (a fresh client's first array can fail to encode, postgres.js issue 789).
 */
function textArray(
  sql: postgres.Sql | postgres.TransactionSql,
  values: readonly string[],
): postgres.PendingQuery<postgres.Row[]> {
  return sql`array(select jsonb_array_elements_text(${JSON.stringify(values)}::text::jsonb))`;
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
