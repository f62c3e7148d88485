/**
 * The statements of the outbox (`kit_outbox`, `kit_outbox_deliveries`) and processed events
 * (`kit_processed_events`) as driver-neutral SQL text, written once: `PostgresOutbox` and
 * `PostgresProcessedEvents` run them through postgres.js, `@kit/jobs`' `SqlOutbox` through any
 * driver (Drizzle, Knex). The tables are those of `kernelMigrations`.
 *
 * @module
 */
import type { IntegrationEvent } from "../events/integration_event.ts";
import type { DeadDeliveryFilter, OutboxClaimParams } from "../events/outbox.ts";
import { type SqlStatement, StatementParams } from "./sql_statement.ts";

/** The channel a committed append or a revival notifies, with the tables' schema as payload. */
export const outboxChannel = "kit_outbox";

/**
 * The payload of the outbox's notifications: the schema given, else `current_schema()`, the
 * schema of the tables on the search path (as `PostgresOutbox` sends it).
 */
function notifySchema(p: StatementParams, schema: string | undefined): string {
  return schema === undefined ? "current_schema()" : `${p.add(schema)}::text`;
}

/**
 * Inserts the event and one delivery per handler, in one statement that notifies
 * `kit_outbox` on commit when there are deliveries.
 */
export function appendEvent(
  event: IntegrationEvent,
  handlers: readonly string[],
  schema: string | undefined,
): SqlStatement {
  const p = new StatementParams();
  const inserted = `insert into kit_outbox
      (id, type, version, occurred_at, payload, correlation_id, causation_id, tenant_id, actor_id)
    values (${p.add(event.id)}, ${p.add(event.type)}, ${p.add(event.version)}::integer,
      ${p.add(event.occurredAt)}::timestamptz, ${p.json(event.payload)},
      ${p.add(event.correlationId ?? null)}::text, ${p.add(event.causationId ?? null)}::text,
      ${p.add(event.tenantId ?? null)}::text, ${p.add(event.actorId ?? null)}::text)`;
  if (handlers.length === 0) return p.statement("appendEvent", inserted);
  return p.statement(
    "appendEventWithDeliveries",
    `with event as (${inserted} returning id, occurred_at)
    insert into kit_outbox_deliveries (event_id, handler, due_at)
    select event.id, handler, event.occurred_at
    from event, jsonb_array_elements_text(${p.json(handlers)}) as handler
    returning pg_notify('${outboxChannel}', ${notifySchema(p, schema)})`,
  );
}

/**
 * Claims due deliveries, in one statement: earliest due first (those of one instant in the order
 * appended), per handler when `handlers` names them; the rows locked `for update skip locked`
 * and updated by ctid (a join back on the key lets the planner scan every delivery ever kept).
 * The claim commits without waiting for the disk: lost in a crash, the deliveries are claimed
 * again with the same attempt; a handler's commit, which waits, makes the claim durable too.
 */
export function claimDeliveries(params: OutboxClaimParams): SqlStatement {
  const p = new StatementParams();
  const now = `${p.add(params.now)}::timestamptz`;
  const lockedUntil = p.add(new Date(params.now.getTime() + params.leaseMs));
  const limit = `${p.add(params.limit)}::integer`;
  const due = params.handlers === undefined
    ? `select ctid from kit_outbox_deliveries
      where delivered_at is null and dead_at is null and due_at <= ${now}
        and (locked_until is null or locked_until <= ${now})
      order by due_at, seq
      limit ${limit}
      for update skip locked`
    : `select d.ctid
      from jsonb_to_recordset(${
      p.json(Object.entries(params.handlers).map(([handler, n]) => ({ handler, n })))
    }) as wanted(handler text, n integer)
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
  return p.statement(
    params.handlers === undefined ? "claimDeliveries" : "claimHandlerDeliveries",
    `update kit_outbox_deliveries d
    set attempts = d.attempts + 1, locked_until = ${lockedUntil}::timestamptz
    from kit_outbox o
    where (select set_config('synchronous_commit', 'off', true)) = 'off'
      and d.ctid = any(array(${due})) and o.id = d.event_id
    returning d.handler, d.attempts, d.due_at, d.seq, o.id, o.type, o.version, o.occurred_at,
      o.payload, o.correlation_id, o.causation_id, o.tenant_id, o.actor_id`,
  );
}

/** Marks one handler's deliveries of these events done (in the handlers' transaction). */
export function completeDeliveries(handler: string, eventIds: readonly string[]): SqlStatement {
  const p = new StatementParams();
  return p.statement(
    "completeDeliveries",
    `update kit_outbox_deliveries set delivered_at = now(), locked_until = null
    where handler = ${p.add(handler)}
      and event_id = any(array(select jsonb_array_elements_text(${p.json(eventIds)})))`,
  );
}

/** Gives a delivery back for a later attempt, or parks it as dead, unless claimed again. */
export function failDelivery(
  eventId: string,
  handler: string,
  attempt: number,
  params: { error: string; now: Date; retryAt?: Date },
): SqlStatement {
  const p = new StatementParams();
  const retryAt = `${p.add(params.retryAt ?? null)}::timestamptz`;
  return p.statement(
    "failDelivery",
    `update kit_outbox_deliveries
    set locked_until = null, last_error = ${p.add(params.error)}::text,
      due_at = coalesce(${retryAt}, due_at),
      dead_at = case when ${retryAt} is null then ${p.add(params.now)}::timestamptz end
    where event_id = ${p.add(eventId)} and handler = ${p.add(handler)}
      and attempts = ${p.add(attempt)}::integer and delivered_at is null and dead_at is null`,
  );
}

/**
 * Gives one handler's claimed deliveries back, their attempt uncounted (`attempts` by event id),
 * and notifies the other relays.
 */
export function releaseDeliveries(
  handler: string,
  attempts: Readonly<Record<string, number>>,
  schema: string | undefined,
): SqlStatement {
  const p = new StatementParams();
  const byEvent = p.json(attempts);
  return p.statement(
    "releaseDeliveries",
    `update kit_outbox_deliveries
    set locked_until = null, attempts = attempts - 1
    where handler = ${p.add(handler)}
      and event_id = any(array(select jsonb_object_keys(${byEvent})))
      and attempts = (${byEvent} ->> event_id)::integer
      and delivered_at is null and dead_at is null
    returning pg_notify('${outboxChannel}', ${notifySchema(p, schema)})`,
  );
}

/** The condition on `d` (deliveries) and `o` (events) of a filter of operators. */
function covers(p: StatementParams, filter: DeadDeliveryFilter): string {
  const eventId = p.add(filter.eventId ?? null);
  const handler = p.add(filter.handler ?? null);
  const tenants = p.add(filter.tenants === undefined ? null : JSON.stringify(filter.tenants));
  return `(${eventId}::text is null or d.event_id = ${eventId}::text)
    and (${handler}::text is null or d.handler = ${handler}::text)
    and (${tenants}::text is null
      or o.tenant_id in (select jsonb_array_elements_text(${tenants}::text::jsonb)))`;
}

/** The dead deliveries a filter covers, oldest event first. */
export function listDeadDeliveries(filter: DeadDeliveryFilter, limit: number): SqlStatement {
  const p = new StatementParams();
  return p.statement(
    "listDeadDeliveries",
    `select d.event_id, o.type, d.handler, o.tenant_id, d.attempts, d.last_error, d.dead_at
    from kit_outbox_deliveries d join kit_outbox o on o.id = d.event_id
    where d.dead_at is not null and ${covers(p, filter)}
    order by d.event_id, d.handler
    limit ${p.add(limit)}::integer`,
  );
}

/** Revives the dead deliveries a filter covers (due now, attempts back to zero), notifying. */
export function reviveDeadDeliveries(
  filter: DeadDeliveryFilter,
  now: Date,
  schema: string | undefined,
): SqlStatement {
  const p = new StatementParams();
  return p.statement(
    "reviveDeadDeliveries",
    `update kit_outbox_deliveries d
    set dead_at = null, attempts = 0, due_at = ${p.add(now)}::timestamptz, locked_until = null
    from kit_outbox o
    where o.id = d.event_id and d.dead_at is not null and ${covers(p, filter)}
    returning pg_notify('${outboxChannel}', ${notifySchema(p, schema)})`,
  );
}

/** The pending deliveries by handler (index `kit_outbox_deliveries_pending`). */
export function pendingBacklog(filter: DeadDeliveryFilter): SqlStatement {
  const p = new StatementParams();
  return p.statement(
    "pendingBacklog",
    `select d.handler, count(*)::integer as pending, min(o.occurred_at) as oldest,
      (count(*) filter (where d.last_error is not null))::integer as retrying
    from kit_outbox_deliveries d join kit_outbox o on o.id = d.event_id
    where d.delivered_at is null and d.dead_at is null and ${covers(p, filter)}
    group by d.handler`,
  );
}

/** The dead deliveries by handler (index `kit_outbox_deliveries_dead`). */
export function deadBacklog(filter: DeadDeliveryFilter): SqlStatement {
  const p = new StatementParams();
  return p.statement(
    "deadBacklog",
    `select d.handler, count(*)::integer as dead
    from kit_outbox_deliveries d join kit_outbox o on o.id = d.event_id
    where d.dead_at is not null and ${covers(p, filter)}
    group by d.handler`,
  );
}

/** Records that a handler processed an event; answers a row only when it was not recorded. */
export function markEventProcessed(handler: string, eventId: string): SqlStatement {
  const p = new StatementParams();
  return p.statement(
    "markEventProcessed",
    `insert into kit_processed_events (handler, event_id) values (${p.add(handler)}, ${
      p.add(eventId)
    })
    on conflict do nothing returning 1 as inserted`,
  );
}
