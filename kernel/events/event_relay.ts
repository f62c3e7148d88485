import { systemActor } from "../actor/actor.ts";
import type { ExecutionContext } from "../actor/execution_context.ts";
import type { ErrorReporter } from "../errors/error_reporter.ts";
import type { Clock } from "../time/clock.ts";
import type { TransactionManager } from "../unit_of_work/unit_of_work.ts";
import { runInScope } from "../unit_of_work/work_scope.ts";
import type { EventHandler } from "./handles_event.ts";
import type { Outbox, OutboxDelivery } from "./outbox.ts";

/** The settings of an {@linkcode EventRelay}. */
export interface EventRelaySettings {
  /** Deliveries claimed at once (default 50). */
  readonly batchSize?: number;
  /** How long a claimed delivery is kept from other relays (default 30 s). */
  readonly leaseMs?: number;
  /** The wait before attempt n + 1 after attempt n failed (default 1 s doubling, capped at 5 min). */
  readonly retryDelay?: (attempt: number) => number;
}

/**
 * Delivers the outbox's events to their handlers, at least once: each delivery runs in its own
 * unit of work, with origin `event`, the system actor, the event's correlation, and causation =
 * the event id. A handler that throws is retried later; its error goes to the error reporter.
 */
export class EventRelay {
  readonly #outbox: Outbox;
  readonly #handlers: ReadonlyMap<string, () => EventHandler>;
  readonly #transactions: TransactionManager;
  readonly #clock: Clock;
  readonly #reporter: ErrorReporter;
  readonly #batchSize: number;
  readonly #leaseMs: number;
  readonly #retryDelay: (attempt: number) => number;

  /** Builds a relay over an outbox and the handlers by name. */
  constructor(options: {
    outbox: Outbox;
    handlers: ReadonlyMap<string, () => EventHandler>;
    transactions: TransactionManager;
    clock: Clock;
    errorReporter: ErrorReporter;
    settings?: EventRelaySettings;
  }) {
    this.#outbox = options.outbox;
    this.#handlers = options.handlers;
    this.#transactions = options.transactions;
    this.#clock = options.clock;
    this.#reporter = options.errorReporter;
    this.#batchSize = options.settings?.batchSize ?? 50;
    this.#leaseMs = options.settings?.leaseMs ?? 30_000;
    this.#retryDelay = options.settings?.retryDelay ??
      ((attempt) => Math.min(1_000 * 2 ** (attempt - 1), 300_000));
  }

  /** Claims and delivers what is due now; answers how many deliveries succeeded. */
  async deliverDue(): Promise<number> {
    const deliveries = await this.#outbox.claim({
      now: this.#clock.now(),
      limit: this.#batchSize,
      leaseMs: this.#leaseMs,
    });
    let delivered = 0;
    for (const delivery of deliveries) {
      if (await this.#deliver(delivery)) delivered++;
    }
    return delivered;
  }

  async #deliver(delivery: OutboxDelivery): Promise<boolean> {
    const { event } = delivery;
    const execution: ExecutionContext = {
      origin: "event",
      actor: systemActor,
      correlationId: event.correlationId ?? event.id,
      causationId: event.id,
      ...(event.tenantId ? { tenantId: event.tenantId } : {}),
    };
    try {
      const resolve = this.#handlers.get(delivery.handler);
      if (resolve === undefined) {
        throw new Error(`No event handler named '${delivery.handler}' in this process`);
      }
      const handler = resolve();
      await this.#transactions.run((unitOfWork) =>
        runInScope({ execution, unitOfWork }, async () => {
          await handler.handle(event, { execution, unitOfWork });
          await this.#outbox.complete(delivery, unitOfWork);
        })
      );
      return true;
    } catch (error) {
      const retryAt = new Date(this.#clock.now().getTime() + this.#retryDelay(delivery.attempt));
      const message = error instanceof Error ? error.message : String(error);
      await this.#outbox.fail(delivery, { error: message, retryAt });
      this.#reporter.report(error, {
        origin: "event",
        details: {
          handler: delivery.handler,
          eventType: event.type,
          eventId: event.id,
          attempt: delivery.attempt,
        },
      });
      return false;
    }
  }
}
