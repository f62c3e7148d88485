import {
  type EventPayloadOf,
  HandlesEvent,
  type IntegrationEvent,
  type ProcessedEvents,
  processOnce,
} from "@kit/kernel";
import { AppointmentBooked } from "../../../scheduling/published-language/appointment-booked.event.ts";
import type { Counters } from "../ports/counters.ts";

/** Counts a booking on its calendar and day, once per event (a redelivery is ignored). */
@HandlesEvent(AppointmentBooked, { name: "analytics.scheduling-appointment-booked" })
export class SchedulingAppointmentBookedHandler {
  constructor(
    private readonly processed: ProcessedEvents,
    private readonly counters: Counters,
  ) {}

  async handle(event: IntegrationEvent<EventPayloadOf<typeof AppointmentBooked>>): Promise<void> {
    const p = event.payload;
    await processOnce(
      this.processed,
      "analytics.scheduling-appointment-booked",
      event,
      () => this.counters.countBooking(event.id, p.calendarId, p.startsAt.slice(0, 10), "booked"),
    );
  }
}
