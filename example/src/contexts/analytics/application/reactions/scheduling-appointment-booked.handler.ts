import {
  type EventPayloadOf,
  HandlesEvent,
  type IntegrationEvent,
  type ProcessedEvents,
  processOnce,
} from "@kit/kernel";
import { AppointmentBooked } from "../../../scheduling/published-language/appointment-booked.event.ts";

/** Reacts to AppointmentBooked of scheduling, once per event (a redelivery is ignored). */
@HandlesEvent(AppointmentBooked, {
  name: "analytics.scheduling-appointment-booked",
})
export class SchedulingAppointmentBookedHandler {
  constructor(private readonly processed: ProcessedEvents) {}

  async handle(
    event: IntegrationEvent<EventPayloadOf<typeof AppointmentBooked>>,
  ): Promise<void> {
    await processOnce(
      this.processed,
      "analytics.scheduling-appointment-booked",
      event,
      () => {
        // TODO(domain): what analytics does when scheduling says appointment booked.
        return Promise.resolve();
      },
    );
  }
}
