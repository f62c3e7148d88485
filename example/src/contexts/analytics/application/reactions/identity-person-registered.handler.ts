import {
  type EventPayloadOf,
  HandlesEvent,
  type IntegrationEvent,
  type ProcessedEvents,
  processOnce,
} from "@kit/kernel";
import { PersonRegistered } from "../../../identity/published-language/person-registered.event.ts";
import type { Counters } from "../ports/counters.ts";

/** Counts a registration on its day, once per event (a redelivery is ignored). */
@HandlesEvent(PersonRegistered, { name: "analytics.identity-person-registered" })
export class IdentityPersonRegisteredHandler {
  constructor(
    private readonly processed: ProcessedEvents,
    private readonly counters: Counters,
  ) {}

  async handle(event: IntegrationEvent<EventPayloadOf<typeof PersonRegistered>>): Promise<void> {
    const p = event.payload;
    await processOnce(
      this.processed,
      "analytics.identity-person-registered",
      event,
      () => this.counters.countRegistration(event.id, p.registeredAt.slice(0, 10)),
    );
  }
}
