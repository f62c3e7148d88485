import {
  type EventPayloadOf,
  HandlesEvent,
  type IntegrationEvent,
  type ProcessedEvents,
  processOnce,
} from "@kit/kernel";
import { PersonRegistered } from "../../../identity/published-language/person-registered.event.ts";

/** Reacts to PersonRegistered of identity, once per event (a redelivery is ignored). */
@HandlesEvent(PersonRegistered, {
  name: "analytics.identity-person-registered",
})
export class IdentityPersonRegisteredHandler {
  constructor(private readonly processed: ProcessedEvents) {}

  async handle(
    event: IntegrationEvent<EventPayloadOf<typeof PersonRegistered>>,
  ): Promise<void> {
    await processOnce(
      this.processed,
      "analytics.identity-person-registered",
      event,
      () => {
        // TODO(domain): what analytics does when identity says person registered.
        return Promise.resolve();
      },
    );
  }
}
