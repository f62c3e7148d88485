import { type Token, token } from "../composition/token.ts";
import type { Clock } from "../time/clock.ts";
import { currentScope } from "../unit_of_work/work_scope.ts";
import type { IntegrationEvent, IntegrationEventDefinition } from "./integration_event.ts";
import type { Outbox } from "./outbox.ts";

/** Publishes integration events from a command, through the outbox of its unit of work. */
export interface EventPublisher {
  /** Validates the payload and writes the event in the unit of work under way. */
  publish<Payload>(
    definition: IntegrationEventDefinition<Payload>,
    payload: Payload,
  ): Promise<IntegrationEvent<Payload>>;
}

/** The token of the event publisher. */
export const EventPublisher: Token<EventPublisher> = token<EventPublisher>("EventPublisher");

/** The publisher over an outbox: refuses to publish outside a unit of work. */
export class OutboxEventPublisher implements EventPublisher {
  readonly #outbox: Outbox;
  readonly #clock: Clock;
  readonly #known: ReadonlySet<string> | undefined;

  /** Publishes to `outbox`, stamping events with the clock's time. */
  constructor(outbox: Outbox, clock: Clock, knownTypes?: ReadonlySet<string>) {
    this.#outbox = outbox;
    this.#clock = clock;
    this.#known = knownTypes;
  }

  /** Writes the event in the unit of work under way. */
  async publish<Payload>(
    definition: IntegrationEventDefinition<Payload>,
    payload: Payload,
  ): Promise<IntegrationEvent<Payload>> {
    if (typeof definition?.create !== "function") {
      throw new TypeError(
        `publish() takes an event from defineIntegrationEvent(), got ${String(definition)}`,
      );
    }
    if (this.#known !== undefined && !this.#known.has(definition.type)) {
      throw new Error(
        `Unknown event type '${definition.type}': list its declaration in the events plugin's events`,
      );
    }
    const scope = currentScope();
    if (scope?.unitOfWork === undefined) {
      throw new Error(
        `Event '${definition.type}' is published outside a unit of work: publish it from a command handler`,
      );
    }
    const event = await definition.create(payload, {
      context: scope.execution,
      occurredAt: this.#clock.now(),
    });
    await this.#outbox.append(event, scope.unitOfWork);
    return event;
  }
}
