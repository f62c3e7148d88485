import {
  type EventPayloadOf,
  HandlesEvent,
  type IntegrationEvent,
  type ProcessedEvents,
  processOnce,
} from "@kit/kernel";
import { AppointmentCancelled } from "../../../scheduling/published-language/appointment-cancelled.event.ts";
import type { Counters } from "../ports/counters.ts";

/** Counts a cancellation on its calendar and day, once per event (a redelivery is ignored). */
@HandlesEvent(AppointmentCancelled, { name: "analytics.scheduling-appointment-cancelled" })
export class SchedulingAppointmentCancelledHandler {
  constructor(
    private readonly processed: ProcessedEvents,
    private readonly counters: Counters,
  ) {}

  async handle(
    event: IntegrationEvent<EventPayloadOf<typeof AppointmentCancelled>>,
  ): Promise<void> {
    const p = event.payload;
    await processOnce(
      this.processed,
      "analytics.scheduling-appointment-cancelled",
      event,
      () =>
        this.counters.countBooking(event.id, p.calendarId, p.startsAt.slice(0, 10), "cancelled"),
    );
  }
}
