import { type Token, token } from "../composition/token.ts";
import type { UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import { currentUnitOfWork } from "../unit_of_work/work_scope.ts";
import type { IntegrationEvent } from "./integration_event.ts";

/**
 * Remembers which (handler, event) pairs were processed, behind a unique key, so that a consumer
 * handles a redelivered event once.
 */
export interface ProcessedEvents {
  /**
   * Records the pair in the unit of work; answers false when it was recorded already (the event
   * was processed before).
   */
  markProcessed(handler: string, eventId: string, unit: UnitOfWork): Promise<boolean>;
}

/** The token of the processed-events store. */
export const ProcessedEvents: Token<ProcessedEvents> = token<ProcessedEvents>("ProcessedEvents");

/** Processed events in process memory: a pair is kept once its unit of work commits. */
export class InMemoryProcessedEvents implements ProcessedEvents {
  readonly #kept = new Set<string>();
  readonly #pending = new Map<string, string>();

  /** Records the pair; false when kept already or recorded by a unit not yet committed. */
  markProcessed(handler: string, eventId: string, unit: UnitOfWork): Promise<boolean> {
    const key = `${handler}\u0000${eventId}`;
    if (this.#kept.has(key)) return Promise.resolve(false);
    if (this.#pending.has(key)) return Promise.resolve(false);
    this.#pending.set(key, unit.id);
    unit.whenCommitted(() => {
      this.#pending.delete(key);
      this.#kept.add(key);
    });
    return Promise.resolve(true);
  }
}

/**
 * Runs the consumer's work only the first time this handler sees this event, in the unit of work
 * under way: the mark and the work commit together or not at all.
 *
 * @example
 * ```ts ignore
 * async handle(event: IntegrationEvent<Booked>): Promise<void> {
 *   await processOnce(this.processed, "notifications.appointments-appointment-booked", event,
 *     () => this.mailer.send(event.payload.patientId));
 * }
 * ```
 */
export async function processOnce(
  processed: ProcessedEvents,
  handler: string,
  event: IntegrationEvent,
  work: () => Promise<void>,
): Promise<boolean> {
  const unit = currentUnitOfWork();
  if (unit === undefined) {
    throw new Error(
      `processOnce('${handler}') runs only inside a unit of work (an event delivery or a command)`,
    );
  }
  if (!(await processed.markProcessed(handler, event.id, unit))) return false;
  await work();
  return true;
}
