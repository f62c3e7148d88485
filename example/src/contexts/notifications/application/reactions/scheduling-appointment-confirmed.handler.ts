import {
  type EventPayloadOf,
  HandlesEvent,
  type IntegrationEvent,
  type ProcessedEvents,
  processOnce,
} from "@kit/kernel";
import { AppointmentConfirmed } from "../../../scheduling/published-language/appointment-confirmed.event.ts";

/** Reacts to AppointmentConfirmed of scheduling, once per event (a redelivery is ignored). */
@HandlesEvent(AppointmentConfirmed, {
  name: "notifications.scheduling-appointment-confirmed",
})
export class SchedulingAppointmentConfirmedHandler {
  constructor(private readonly processed: ProcessedEvents) {}

  async handle(
    event: IntegrationEvent<EventPayloadOf<typeof AppointmentConfirmed>>,
  ): Promise<void> {
    await processOnce(
      this.processed,
      "notifications.scheduling-appointment-confirmed",
      event,
      () => {
        // TODO(domain): what notifications does when scheduling says appointment confirmed.
        return Promise.resolve();
      },
    );
  }
}
