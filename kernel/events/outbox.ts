import type { UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import type { IntegrationEvent } from "./integration_event.ts";

/** One event to deliver to one handler, claimed by a relay for a lease. */
export interface OutboxDelivery {
  /** The event. */
  readonly event: IntegrationEvent;
  /** The name of the handler, `<context>.<reaction>`. */
  readonly handler: string;
  /** The number of this delivery attempt, from 1. */
  readonly attempt: number;
}

/**
 * Where events wait between the command that published them and their handlers. An event is
 * written in the command's unit of work: on rollback it never existed. Deliveries are tracked per
 * (event, handler), at least once.
 */
export interface Outbox {
  /** Declares which handlers receive each event type; called once by the events plugin. */
  subscribe(subscriptions: ReadonlyMap<string, readonly string[]>): void;
  /** Writes the event, with a delivery per subscribed handler, in the unit of work. */
  append(event: IntegrationEvent, unit: UnitOfWork): Promise<void>;
  /** Claims due deliveries for `leaseMs`; a claimed one is not claimed again until the lease ends. */
  claim(params: { now: Date; limit: number; leaseMs: number }): Promise<OutboxDelivery[]>;
  /** Marks the delivery done, in the handler's unit of work. */
  complete(delivery: OutboxDelivery, unit: UnitOfWork): Promise<void>;
  /** Gives the delivery back, due again at `retryAt`, with the error kept. */
  fail(delivery: OutboxDelivery, params: { error: string; retryAt: Date }): Promise<void>;
}
