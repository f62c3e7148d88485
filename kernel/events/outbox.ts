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

/** What {@linkcode Outbox.claim} takes. */
export interface OutboxClaimParams {
  /** The relay's time: deliveries due at or before it, whose lease ended, are claimed. */
  readonly now: Date;
  /** The most deliveries claimed in all. */
  readonly limit: number;
  /** How long the claimed deliveries are kept from other relays. */
  readonly leaseMs: number;
  /**
   * The most deliveries claimed for each handler, by name; deliveries of other handlers are left
   * to the relays that have them. Absent: any handler's, up to `limit`.
   */
  readonly handlers?: Readonly<Record<string, number>>;
}

/** What {@linkcode Outbox.fail} takes. */
export interface OutboxFailParams {
  /** The error message, kept with the delivery. */
  readonly error: string;
  /** The relay's time. */
  readonly now: Date;
  /** When to try again; absent, the delivery is dead (parked until an operator revives it). */
  readonly retryAt?: Date;
}

/** Which dead deliveries an operation covers. */
export interface DeadDeliveryFilter {
  /** Only this event's. */
  readonly eventId?: string;
  /** Only this handler's. */
  readonly handler?: string;
  /**
   * Only events of these tenants (an event of no tenant is then left out); absent, every
   * tenant's. The relay fills it from the work under way.
   */
  readonly tenants?: readonly string[];
}

/** A delivery that failed its last allowed attempt, parked until an operator revives it. */
export interface DeadDelivery {
  /** The event's id. */
  readonly eventId: string;
  /** The event's type. */
  readonly eventType: string;
  /** The handler's name. */
  readonly handler: string;
  /** The tenant of the event, if any. */
  readonly tenantId?: string;
  /** The attempts made. */
  readonly attempts: number;
  /** The error of the last attempt. */
  readonly lastError?: string;
  /** When it was parked (the relay's time). */
  readonly deadAt: Date;
}

/** What {@linkcode Outbox.backlog} takes. */
export interface OutboxBacklogParams {
  /**
   * Only events of these tenants (an event of no tenant is then left out); absent, every
   * tenant's.
   */
  readonly tenants?: readonly string[];
}

/** The deliveries of one handler not delivered yet, as {@linkcode Outbox.backlog} counts them. */
export interface OutboxHandlerBacklog {
  /** The handler's name, `<context>.<reaction>`. */
  readonly handler: string;
  /** Deliveries waiting to be delivered (due, due later after a failure, or claimed now). */
  readonly pending: number;
  /** When the oldest pending delivery's event occurred; absent when none is pending. */
  readonly oldestPendingAt?: Date;
  /** Pending deliveries whose last attempt failed (they will be tried again). */
  readonly retrying: number;
  /** Dead deliveries, parked until an operator revives them. */
  readonly dead: number;
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
  /**
   * Claims due deliveries for `leaseMs`, earliest due first, each with one attempt more; a
   * claimed one is not claimed again until the lease ends. Dead and delivered ones never.
   */
  claim(params: OutboxClaimParams): Promise<OutboxDelivery[]>;
  /**
   * Marks the deliveries done, in the unit of work their handlers ran in (a lane's transaction,
   * after each handler ran in its savepoint): they commit together, or not at all.
   */
  complete(deliveries: readonly OutboxDelivery[], unit: UnitOfWork): Promise<void>;
  /** Gives the delivery back, due again at `retryAt` (or dead without it), with the error kept. */
  fail(delivery: OutboxDelivery, params: OutboxFailParams): Promise<void>;
  /** Gives claimed deliveries back unattempted (a relay stopping): due, their attempt uncounted. */
  release(deliveries: readonly OutboxDelivery[]): Promise<void>;
  /** The dead deliveries the filter covers, oldest event first, at most `limit` (default 100). */
  deadDeliveries(params: DeadDeliveryFilter & { limit?: number }): Promise<DeadDelivery[]>;
  /**
   * Revives the dead deliveries the filter covers: due at `now`, attempts back to zero; answers
   * how many.
   */
  retryDead(params: DeadDeliveryFilter & { now: Date }): Promise<number>;
  /**
   * The deliveries not delivered yet, by handler (sorted by name; handlers with none are left
   * out): how many are pending, the oldest pending's event time, how many are retrying after a
   * failure, how many are dead. For operators (the jobs dashboard's outbox view).
   */
  backlog(params?: OutboxBacklogParams): Promise<OutboxHandlerBacklog[]>;
  /**
   * Calls `onAppended` soon after deliveries are committed or revived by any process (PostgreSQL
   * LISTEN/NOTIFY), and again each time listening resumes after a lost connection; answers the
   * function that stops listening. Outboxes that cannot tell leave it out: relays poll.
   */
  listen?(onAppended: () => void): Promise<() => Promise<void>>;
  /**
   * Runs `work` in a savepoint of the unit, with a unit of its own: when `work` throws, its
   * writes are undone and its commit callbacks dropped, while the unit goes on. Outboxes that
   * offer it let the relay deliver several events in one transaction, each in its savepoint.
   */
  savepoint?<T>(unit: UnitOfWork, work: (nested: UnitOfWork) => Promise<T>): Promise<T>;
}
