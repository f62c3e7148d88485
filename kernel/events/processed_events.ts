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

/**
 * Processed events in process memory. A mark is the unit of work's until that unit ends: kept once
 * it commits, dropped when it rolls back, so the retry of a failed delivery runs its handler again.
 *
 * A unit marking a pair another unit in progress has marked waits for that unit to end (it takes
 * the pair's named lock, {@linkcode UnitOfWork.lock}), as PostgreSQL makes the second insert of a
 * unique key wait: then it answers false when the other committed, and takes the mark when the
 * other rolled back. Answering "taken" at once instead would lose the effect whenever the first
 * delivery then rolls back and the second one, skipped, completes. One case stays open: a unit
 * resuming in the instant between the other's commit and that unit's commit callbacks sees no
 * kept mark and takes it, so the event is handled twice (an in-memory unit of work tells nothing
 * of a rollback): at least once, as every delivery is.
 */
export class InMemoryProcessedEvents implements ProcessedEvents {
  readonly #kept = new Set<string>();
  /** Marks not yet committed, by pair: the id of the unit that holds each. */
  readonly #pending = new Map<string, string>();

  /** Records the pair in the unit; false when kept already or marked by this unit before. */
  async markProcessed(handler: string, eventId: string, unit: UnitOfWork): Promise<boolean> {
    const key = `${handler}\u0000${eventId}`;
    if (this.#kept.has(key) || this.#pending.get(key) === unit.id) return false;
    await unit.lock(`kit:processed-events:${JSON.stringify([handler, eventId])}`);
    // Any unit that marked the pair before has ended: committed (kept), or rolled back (its mark
    // is left pending, and taken over here).
    if (this.#kept.has(key) || this.#pending.get(key) === unit.id) return false;
    this.#pending.set(key, unit.id);
    unit.whenCommitted(() => {
      if (this.#pending.get(key) === unit.id) this.#pending.delete(key);
      this.#kept.add(key);
    });
    return true;
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
