import {
  type EventPayloadOf,
  HandlesEvent,
  type IntegrationEvent,
  type ProcessedEvents,
  processOnce,
} from "@kit/kernel";
import { AppointmentRescheduled } from "../../../scheduling/published-language/appointment-rescheduled.event.ts";

/** Reacts to AppointmentRescheduled of scheduling, once per event (a redelivery is ignored). */
@HandlesEvent(AppointmentRescheduled, {
  name: "notifications.scheduling-appointment-rescheduled",
})
export class SchedulingAppointmentRescheduledHandler {
  constructor(private readonly processed: ProcessedEvents) {}

  async handle(
    event: IntegrationEvent<EventPayloadOf<typeof AppointmentRescheduled>>,
  ): Promise<void> {
    await processOnce(
      this.processed,
      "notifications.scheduling-appointment-rescheduled",
      event,
      () => {
        // TODO(domain): what notifications does when scheduling says appointment rescheduled.
        return Promise.resolve();
      },
    );
  }
}
