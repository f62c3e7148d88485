import type { UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import type { IntegrationEvent } from "./integration_event.ts";
import type {
  DeadDelivery,
  DeadDeliveryFilter,
  Outbox,
  OutboxBacklogParams,
  OutboxClaimParams,
  OutboxDelivery,
  OutboxFailParams,
  OutboxHandlerBacklog,
} from "./outbox.ts";

interface Row {
  readonly event: IntegrationEvent;
  readonly handler: string;
  attempts: number;
  dueAt: number;
  lockedUntil: number;
  delivered: boolean;
  deadAt?: number;
  lastError?: string;
}

/**
 * An outbox in process memory: events are kept only once their unit of work commits, and are
 * lost at restart. For tests and single-process development. It does not notify: a running relay
 * finds new events at its next poll, and delivers each in a unit of work of its own.
 */
export class InMemoryOutbox implements Outbox {
  #subscriptions: ReadonlyMap<string, readonly string[]> = new Map();
  #rows: Row[] = [];

  /** Declares the handlers of each event type. */
  subscribe(subscriptions: ReadonlyMap<string, readonly string[]>): void {
    this.#subscriptions = subscriptions;
  }

  /** Keeps the event once the unit of work commits. */
  append(event: IntegrationEvent, unit: UnitOfWork): Promise<void> {
    unit.whenCommitted(() => {
      const dueAt = Date.parse(event.occurredAt);
      for (const handler of this.#subscriptions.get(event.type) ?? []) {
        this.#rows.push({ event, handler, attempts: 0, dueAt, lockedUntil: 0, delivered: false });
      }
    });
    return Promise.resolve();
  }

  /** Claims due deliveries, earliest first, within each handler's limit. */
  claim(params: OutboxClaimParams): Promise<OutboxDelivery[]> {
    const now = params.now.getTime();
    const left = params.handlers === undefined ? undefined : { ...params.handlers };
    const due = this.#rows
      .filter((r) => this.#pending(r) && r.dueAt <= now && r.lockedUntil <= now)
      .sort((a, b) => a.dueAt - b.dueAt)
      .filter((r) => {
        if (left === undefined) return true;
        const n = left[r.handler] ?? 0;
        if (n <= 0) return false;
        left[r.handler] = n - 1;
        return true;
      })
      .slice(0, params.limit);
    return Promise.resolve(due.map((row) => {
      row.attempts += 1;
      row.lockedUntil = now + params.leaseMs;
      return { event: row.event, handler: row.handler, attempt: row.attempts };
    }));
  }

  /** Marks the deliveries done when the handlers' unit commits. */
  complete(deliveries: readonly OutboxDelivery[], unit: UnitOfWork): Promise<void> {
    unit.whenCommitted(() => {
      for (const delivery of deliveries) {
        const row = this.#find(delivery);
        if (row) {
          row.delivered = true;
          row.lockedUntil = 0;
        }
      }
    });
    return Promise.resolve();
  }

  /** Gives the delivery back for a later attempt, or parks it as dead (unless claimed again). */
  fail(delivery: OutboxDelivery, params: OutboxFailParams): Promise<void> {
    const row = this.#find(delivery);
    if (row && this.#pending(row) && row.attempts === delivery.attempt) {
      row.lockedUntil = 0;
      row.lastError = params.error;
      if (params.retryAt === undefined) row.deadAt = params.now.getTime();
      else row.dueAt = params.retryAt.getTime();
    }
    return Promise.resolve();
  }

  /** Gives claimed deliveries back, their attempt uncounted. */
  release(deliveries: readonly OutboxDelivery[]): Promise<void> {
    for (const delivery of deliveries) {
      const row = this.#find(delivery);
      if (row && this.#pending(row) && row.attempts === delivery.attempt) {
        row.lockedUntil = 0;
        row.attempts -= 1;
      }
    }
    return Promise.resolve();
  }

  /** The dead deliveries the filter covers, oldest event first. */
  deadDeliveries(params: DeadDeliveryFilter & { limit?: number }): Promise<DeadDelivery[]> {
    return Promise.resolve(
      this.#rows.filter((r) => r.deadAt !== undefined && covers(params, r))
        .sort((a, b) => a.event.id.localeCompare(b.event.id))
        .slice(0, params.limit ?? 100)
        .map((r) => ({
          eventId: r.event.id,
          eventType: r.event.type,
          handler: r.handler,
          ...(r.event.tenantId ? { tenantId: r.event.tenantId } : {}),
          attempts: r.attempts,
          ...(r.lastError !== undefined ? { lastError: r.lastError } : {}),
          deadAt: new Date(r.deadAt!),
        })),
    );
  }

  /** Revives the dead deliveries the filter covers: due now, attempts back to zero. */
  retryDead(params: DeadDeliveryFilter & { now: Date }): Promise<number> {
    let revived = 0;
    for (const row of this.#rows) {
      if (row.deadAt === undefined || !covers(params, row)) continue;
      delete row.deadAt;
      row.attempts = 0;
      row.dueAt = params.now.getTime();
      row.lockedUntil = 0;
      revived++;
    }
    return Promise.resolve(revived);
  }

  /** The deliveries not delivered yet, by handler: pending, oldest pending, retrying, dead. */
  backlog(params: OutboxBacklogParams = {}): Promise<OutboxHandlerBacklog[]> {
    const byHandler = new Map<
      string,
      { pending: number; oldest?: number; retrying: number; dead: number }
    >();
    for (const row of this.#rows) {
      if (row.delivered || !covers(params, row)) continue;
      let counts = byHandler.get(row.handler);
      if (counts === undefined) {
        byHandler.set(row.handler, counts = { pending: 0, retrying: 0, dead: 0 });
      }
      if (row.deadAt !== undefined) {
        counts.dead += 1;
        continue;
      }
      counts.pending += 1;
      if (row.lastError !== undefined) counts.retrying += 1;
      const at = Date.parse(row.event.occurredAt);
      if (counts.oldest === undefined || at < counts.oldest) counts.oldest = at;
    }
    return Promise.resolve(
      [...byHandler.keys()].sort().map((handler) => {
        const { oldest, ...counts } = byHandler.get(handler)!;
        return {
          handler,
          pending: counts.pending,
          ...(oldest === undefined ? {} : { oldestPendingAt: new Date(oldest) }),
          retrying: counts.retrying,
          dead: counts.dead,
        };
      }),
    );
  }

  /** Every (event, handler) delivery kept, for tests. */
  list(): {
    type: string;
    eventId: string;
    handler: string;
    attempts: number;
    delivered: boolean;
    dead: boolean;
  }[] {
    return this.#rows.map((r) => ({
      type: r.event.type,
      eventId: r.event.id,
      handler: r.handler,
      attempts: r.attempts,
      delivered: r.delivered,
      dead: r.deadAt !== undefined,
    }));
  }

  /** Makes a delivered event due again, as a redelivery would (for tests of idempotency). */
  redeliver(eventId: string): void {
    for (const row of this.#rows) {
      if (row.event.id === eventId) {
        row.delivered = false;
        row.lockedUntil = 0;
      }
    }
  }

  #pending(row: Row): boolean {
    return !row.delivered && row.deadAt === undefined;
  }

  #find(delivery: OutboxDelivery): Row | undefined {
    return this.#rows.find((r) =>
      r.event.id === delivery.event.id && r.handler === delivery.handler
    );
  }
}

function covers(filter: DeadDeliveryFilter & OutboxBacklogParams, row: Row): boolean {
  if (filter.eventId !== undefined && row.event.id !== filter.eventId) return false;
  if (filter.handler !== undefined && row.handler !== filter.handler) return false;
  if (filter.tenants === undefined) return true;
  return row.event.tenantId !== undefined && filter.tenants.includes(row.event.tenantId);
}
