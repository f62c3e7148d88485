import type postgres from "postgres";
import type { IntegrationEvent } from "../events/integration_event.ts";
import type { Outbox, OutboxDelivery } from "../events/outbox.ts";
import type { UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import { transactionOf } from "./postgres_transactions.ts";

/**
 * The outbox on PostgreSQL: an event and its deliveries are inserted in the command's
 * transaction; relays claim deliveries with `FOR UPDATE SKIP LOCKED`, so two relays never
 * deliver the same (event, handler) at once; a delivery is marked done in the handler's
 * transaction. Tables come from `migrateKernel`.
 */
export class PostgresOutbox implements Outbox {
  readonly #sql: postgres.Sql;
  #subscriptions: ReadonlyMap<string, readonly string[]> = new Map();

  /** An outbox whose claims run on this client (the tables on its search path). */
  constructor(sql: postgres.Sql) {
    this.#sql = sql;
  }

  /** Declares the handlers of each event type. */
  subscribe(subscriptions: ReadonlyMap<string, readonly string[]>): void {
    this.#subscriptions = subscriptions;
  }

  /** Inserts the event and one delivery per handler in the unit's transaction. */
  async append(event: IntegrationEvent, unit: UnitOfWork): Promise<void> {
    const tx = requireTransaction(unit, event.type);
    await tx`
      insert into kit_outbox
        (id, type, version, occurred_at, payload, correlation_id, causation_id, tenant_id, actor_id)
      values (${event.id}, ${event.type}, ${event.version}, ${event.occurredAt},
        ${tx.json(event.payload as postgres.JSONValue)}, ${event.correlationId ?? null},
        ${event.causationId ?? null}, ${event.tenantId ?? null}, ${event.actorId ?? null})`;
    const handlers = this.#subscriptions.get(event.type) ?? [];
    if (handlers.length === 0) return;
    await tx`
      insert into kit_outbox_deliveries (event_id, handler, due_at)
      select ${event.id}, handler, ${event.occurredAt}::timestamptz
      from unnest(${tx.array([...handlers])}::text[]) as handler`;
  }

  /** Claims due deliveries in a short transaction of its own. */
  async claim(params: { now: Date; limit: number; leaseMs: number }): Promise<OutboxDelivery[]> {
    const lockedUntil = new Date(params.now.getTime() + params.leaseMs);
    const rows = await this.#sql`
      with due as (
        select event_id, handler from kit_outbox_deliveries
        where delivered_at is null and due_at <= ${params.now}
          and (locked_until is null or locked_until <= ${params.now})
        order by due_at
        limit ${params.limit}
        for update skip locked
      )
      update kit_outbox_deliveries d
      set attempts = d.attempts + 1, locked_until = ${lockedUntil}
      from due, kit_outbox o
      where d.event_id = due.event_id and d.handler = due.handler and o.id = d.event_id
      returning d.handler, d.attempts, o.id, o.type, o.version, o.occurred_at, o.payload,
        o.correlation_id, o.causation_id, o.tenant_id, o.actor_id`;
    return rows.map((row) => ({
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

  /** Marks the delivery done in the handler's transaction. */
  async complete(delivery: OutboxDelivery, unit: UnitOfWork): Promise<void> {
    const tx = requireTransaction(unit, delivery.event.type);
    await tx`
      update kit_outbox_deliveries set delivered_at = now(), locked_until = null
      where event_id = ${delivery.event.id} and handler = ${delivery.handler}`;
  }

  /** Gives the delivery back for a later attempt. */
  async fail(delivery: OutboxDelivery, params: { error: string; retryAt: Date }): Promise<void> {
    await this.#sql`
      update kit_outbox_deliveries
      set locked_until = null, due_at = ${params.retryAt}, last_error = ${params.error}
      where event_id = ${delivery.event.id} and handler = ${delivery.handler}
        and delivered_at is null`;
  }
}

function requireTransaction(unit: UnitOfWork, type: string): postgres.TransactionSql {
  const tx = transactionOf(unit);
  if (tx === undefined) {
    throw new Error(
      `PostgresOutbox needs a Postgres unit of work to write event '${type}': compose the application with PostgresTransactions`,
    );
  }
  return tx;
}
