import {
  type Clock,
  type EventPayloadOf,
  HandlesEvent,
  type IdGenerator,
  type IntegrationEvent,
  type ProcessedEvents,
  processOnce,
} from "@kit/kernel";
import { AppointmentConfirmed } from "../../../scheduling/published-language/appointment-confirmed.event.ts";
import { whenText } from "../../domain/notification.ts";

import type { NotificationStore } from "../ports/notification-store.ts";
import { tellPatient } from "./tell-patient.ts";

/**
 * Tells the patient their appointment was confirmed, and records the start confirmed (its reminder
 * is then sent, see RemindPatientHandler), once per event (a redelivery is ignored).
 */
@HandlesEvent(AppointmentConfirmed, { name: "notifications.scheduling-appointment-confirmed" })
export class SchedulingAppointmentConfirmedHandler {
  constructor(
    private readonly processed: ProcessedEvents,
    private readonly notifications: NotificationStore,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async handle(
    event: IntegrationEvent<EventPayloadOf<typeof AppointmentConfirmed>>,
  ): Promise<void> {
    const p = event.payload;
    await processOnce(
      this.processed,
      "notifications.scheduling-appointment-confirmed",
      event,
      async () => {
        await this.notifications.recordConfirmed(p.appointmentId, p.startsAt);
        await tellPatient(this.notifications, this.ids, this.clock, {
          patientId: p.patientId,
          appointmentId: p.appointmentId,
          kind: "appointment-confirmed",
          title: "Appointment confirmed",
          body: `You confirmed your appointment of ${whenText(p.startsAt)}.`,
        });
      },
    );
  }
}
