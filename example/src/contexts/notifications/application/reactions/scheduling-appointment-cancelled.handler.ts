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
  name: "notifications.scheduling-appointment-cancelled",
})
export class SchedulingAppointmentCancelledHandler {
  constructor(private readonly processed: ProcessedEvents) {}

  async handle(
    event: IntegrationEvent<EventPayloadOf<typeof AppointmentCancelled>>,
  ): Promise<void> {
    await processOnce(
      this.processed,
      "notifications.scheduling-appointment-cancelled",
      event,
      () => {
        // TODO(domain): what notifications does when scheduling says appointment cancelled.
        return Promise.resolve();
      },
    );
  }
}
