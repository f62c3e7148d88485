import { systemActor } from "../actor/actor.ts";
import type { ExecutionContext } from "../actor/execution_context.ts";
import type { ErrorReporter } from "../errors/error_reporter.ts";
import { knownFailure } from "../errors/known_failure.ts";
import type { Logger } from "../logging/logger.ts";
import type { Clock } from "../time/clock.ts";
import type { TransactionManager, UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import { runInScope } from "../unit_of_work/work_scope.ts";
import type { EventHandler } from "./handles_event.ts";
import type { Outbox, OutboxDelivery } from "./outbox.ts";
import type { ResolvedRelaySettings } from "./relay_settings.ts";

/** What a lane needs from its relay. */
export interface Lane {
  readonly outbox: Outbox;
  readonly handlers: ReadonlyMap<string, () => EventHandler>;
  readonly transactions: TransactionManager;
  readonly clock: Clock;
  readonly reporter: ErrorReporter;
  /** Where a delivery retried after a conflict is noted (a debug line), when given. */
  readonly logger?: Logger;
  readonly settings: ResolvedRelaySettings;
  /** Whether the relay is stopping: the lane starts no more deliveries. */
  readonly stopping: () => boolean;
}

/**
 * Runs a batch of claimed deliveries one after another: in one transaction, each in a savepoint,
 * when the outbox offers savepoints and the batch has more than one; else a transaction each.
 * The deliveries' completion is written in that transaction: a delivery is done exactly when
 * what its handler wrote commits. Failed deliveries are given back
 * for a later attempt (or parked as dead after the last); deliveries not started (the relay
 * stopping, the batch window over) are given back uncounted. Answers how many were delivered.
 */
export async function runLane(lane: Lane, batch: readonly OutboxDelivery[]): Promise<number> {
  const startedAt = lane.clock.now().getTime();
  const open = () =>
    !lane.stopping() && lane.clock.now().getTime() - startedAt < lane.settings.batchWindowMs;
  const delivered: OutboxDelivery[] = [];
  const failed: [OutboxDelivery, unknown][] = [];
  let next = 0;
  const savepoint = lane.outbox.savepoint?.bind(lane.outbox);
  if (savepoint !== undefined && batch.length > 1 && open()) {
    try {
      await lane.transactions.run(async (unit) => {
        while (next < batch.length && open()) {
          const delivery = batch[next++]!;
          try {
            await savepoint(unit, (nested) => handle(lane, delivery, nested));
            delivered.push(delivery);
          } catch (error) {
            failed.push([delivery, error]);
          }
        }
        await lane.outbox.complete(delivered, unit);
      });
    } catch (error) {
      // The commit failed: what the batch delivered is undone with it.
      for (const delivery of delivered.splice(0)) failed.push([delivery, error]);
    }
  } else {
    while (next < batch.length && open()) {
      const delivery = batch[next++]!;
      try {
        await lane.transactions.run(async (unit) => {
          await handle(lane, delivery, unit);
          await lane.outbox.complete([delivery], unit);
        });
        delivered.push(delivery);
      } catch (error) {
        failed.push([delivery, error]);
      }
    }
  }
  for (const [delivery, error] of failed) await giveBack(lane, delivery, error);
  const notStarted = batch.slice(next);
  if (notStarted.length > 0) {
    try {
      await lane.outbox.release(notStarted);
    } catch (error) {
      lane.reporter.report(error, {
        origin: "event",
        details: { stage: "release", deliveries: notStarted.length },
      });
    }
  }
  return delivered.length;
}

/** Runs the delivery's handler in the unit, in the work scope of the event. */
function handle(lane: Lane, delivery: OutboxDelivery, unit: UnitOfWork): Promise<void> {
  const { event } = delivery;
  const execution: ExecutionContext = {
    origin: "event",
    actor: systemActor,
    correlationId: event.correlationId ?? event.id,
    causationId: event.id,
    ...(event.tenantId ? { tenantId: event.tenantId } : {}),
  };
  const resolve = lane.handlers.get(delivery.handler);
  if (resolve === undefined) {
    return Promise.reject(
      new Error(`No event handler named '${delivery.handler}' in this process`),
    );
  }
  const handler = resolve();
  return runInScope(
    { execution, unitOfWork: unit },
    () => handler.handle(event, { execution, unitOfWork: unit }),
  );
}

/**
 * Gives a failed delivery back: due again after `retryDelay` with its error reported, or parked
 * as dead after its last attempt. A conflict of transactions (a deadlock, a serialization
 * failure) is no fault of the handler: the delivery is due again at once, and only a debug line
 * notes it.
 */
async function giveBack(lane: Lane, delivery: OutboxDelivery, error: unknown): Promise<void> {
  const now = lane.clock.now();
  const dead = delivery.attempt >= lane.settings.maxAttempts;
  const conflict = knownFailure(error)?.kind === "conflict";
  const message = error instanceof Error ? error.message : String(error);
  try {
    await lane.outbox.fail(
      delivery,
      dead ? { error: message, now } : {
        error: message,
        now,
        retryAt: conflict
          ? now
          : new Date(now.getTime() + lane.settings.retryDelay(delivery.attempt)),
      },
    );
  } catch (failError) {
    // The delivery stays claimed until its lease ends, then is claimed again.
    lane.reporter.report(failError, {
      origin: "event",
      details: { stage: "fail", handler: delivery.handler, eventId: delivery.event.id },
    });
  }
  if (conflict && !dead) {
    lane.logger?.log({
      level: "debug",
      component: "outbox.relay",
      code: "DELIVERY_CONFLICT",
      message:
        "A delivery met a concurrent transaction (deadlock or serialization failure): retried",
      details: { handler: delivery.handler, eventId: delivery.event.id, attempt: delivery.attempt },
    });
    return;
  }
  lane.reporter.report(error, {
    origin: "event",
    details: {
      handler: delivery.handler,
      eventType: delivery.event.type,
      eventId: delivery.event.id,
      attempt: delivery.attempt,
      outcome: dead ? "dead" : "retried",
    },
  });
}
