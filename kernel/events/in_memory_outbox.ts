import type { UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import type { IntegrationEvent } from "./integration_event.ts";
import type { Outbox, OutboxDelivery } from "./outbox.ts";

interface Row {
  readonly event: IntegrationEvent;
  readonly handler: string;
  attempts: number;
  dueAt: number;
  lockedUntil: number;
  delivered: boolean;
  lastError?: string;
}

/**
 * An outbox in process memory: events are kept only once their unit of work commits, and are
 * lost at restart. For tests and single-process development.
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

  /** Claims due deliveries, earliest first. */
  claim(params: { now: Date; limit: number; leaseMs: number }): Promise<OutboxDelivery[]> {
    const now = params.now.getTime();
    const due = this.#rows
      .filter((r) => !r.delivered && r.dueAt <= now && r.lockedUntil <= now)
      .sort((a, b) => a.dueAt - b.dueAt)
      .slice(0, params.limit);
    return Promise.resolve(due.map((row) => {
      row.attempts += 1;
      row.lockedUntil = now + params.leaseMs;
      return { event: row.event, handler: row.handler, attempt: row.attempts };
    }));
  }

  /** Marks the delivery done when the handler's unit commits. */
  complete(delivery: OutboxDelivery, unit: UnitOfWork): Promise<void> {
    unit.whenCommitted(() => {
      const row = this.#find(delivery);
      if (row) row.delivered = true;
    });
    return Promise.resolve();
  }

  /** Gives the delivery back for a later attempt. */
  fail(delivery: OutboxDelivery, params: { error: string; retryAt: Date }): Promise<void> {
    const row = this.#find(delivery);
    if (row) {
      row.lockedUntil = 0;
      row.dueAt = params.retryAt.getTime();
      row.lastError = params.error;
    }
    return Promise.resolve();
  }

  /** Every (event, handler) delivery kept, for tests. */
  list(): {
    type: string;
    eventId: string;
    handler: string;
    attempts: number;
    delivered: boolean;
  }[] {
    return this.#rows.map((r) => ({
      type: r.event.type,
      eventId: r.event.id,
      handler: r.handler,
      attempts: r.attempts,
      delivered: r.delivered,
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

  #find(delivery: OutboxDelivery): Row | undefined {
    return this.#rows.find((r) =>
      r.event.id === delivery.event.id && r.handler === delivery.handler
    );
  }
}
