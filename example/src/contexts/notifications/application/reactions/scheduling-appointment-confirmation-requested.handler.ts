import {
  type Clock,
  type EventPayloadOf,
  HandlesEvent,
  type IdGenerator,
  type IntegrationEvent,
  type ProcessedEvents,
  processOnce,
} from "@kit/kernel";
import { AppointmentConfirmationRequested } from "../../../scheduling/published-language/appointment-confirmation-requested.event.ts";
import { whenText } from "../../domain/notification.ts";
import type { NotificationStore } from "../ports/notification-store.ts";
import { tellPatient } from "./tell-patient.ts";

/**
 * Asks the patient to confirm their appointment (the reminder of scheduling's confirmation
 * process), telling them when its slot is released unconfirmed; once per event (a redelivery is
 * ignored).
 */
@HandlesEvent(AppointmentConfirmationRequested, {
  name: "notifications.scheduling-appointment-confirmation-requested",
})
export class SchedulingAppointmentConfirmationRequestedHandler {
  constructor(
    private readonly processed: ProcessedEvents,
    private readonly notifications: NotificationStore,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async handle(
    event: IntegrationEvent<EventPayloadOf<typeof AppointmentConfirmationRequested>>,
  ): Promise<void> {
    const p = event.payload;
    await processOnce(
      this.processed,
      "notifications.scheduling-appointment-confirmation-requested",
      event,
      async () => {
        await tellPatient(this.notifications, this.ids, this.clock, {
          patientId: p.patientId,
          appointmentId: p.appointmentId,
          kind: "appointment-confirmation-request",
          title: "Please confirm your appointment",
          body: `Your appointment of ${
            whenText(p.startsAt)
          } is not confirmed yet: confirm it before ${
            whenText(p.releasedAt)
          }, or it is cancelled and its slot given to another patient.`,
        });
      },
    );
  }
}
