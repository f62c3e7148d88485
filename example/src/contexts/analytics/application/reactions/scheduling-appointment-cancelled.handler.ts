import {
  type EventPayloadOf,
  HandlesEvent,
  type IntegrationEvent,
  type ProcessedEvents,
  processOnce,
} from "@kit/kernel";
import { AppointmentCancelled } from "../../../scheduling/published-language/appointment-cancelled.event.ts";

/** Reacts to AppointmentCancelled of scheduling, once per event (a redelivery is ignored). */
@HandlesEvent(AppointmentCancelled, {
  name: "analytics.scheduling-appointment-cancelled",
})
export class SchedulingAppointmentCancelledHandler {
  constructor(private readonly processed: ProcessedEvents) {}

  async handle(
    event: IntegrationEvent<EventPayloadOf<typeof AppointmentCancelled>>,
  ): Promise<void> {
    await processOnce(
      this.processed,
      "analytics.scheduling-appointment-cancelled",
      event,
      () => {
        // TODO(domain): what analytics does when scheduling says appointment cancelled.
        return Promise.resolve();
      },
    );
  }
}
