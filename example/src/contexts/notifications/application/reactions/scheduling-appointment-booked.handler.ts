import {
  type Clock,
  type CommandBus,
  type EventPayloadOf,
  HandlesEvent,
  type IdGenerator,
  type IntegrationEvent,
  type ProcessedEvents,
  processOnce,
  systemActor,
} from "@kit/kernel";
import { AppointmentBooked } from "../../../scheduling/published-language/appointment-booked.event.ts";
import { whenText } from "../../domain/notification.ts";
import { PlanReminder } from "../commands/plan-reminder/plan-reminder.command.ts";
import type { NotificationStore } from "../ports/notification-store.ts";
import { tellPatient } from "./tell-patient.ts";

/** Tells the patient their appointment was booked and plans its reminder again, once per event (a redelivery is ignored). */
@HandlesEvent(AppointmentBooked, { name: "notifications.scheduling-appointment-booked" })
export class SchedulingAppointmentBookedHandler {
  constructor(
    private readonly processed: ProcessedEvents,
    private readonly notifications: NotificationStore,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly commands: CommandBus,
  ) {}

  async handle(event: IntegrationEvent<EventPayloadOf<typeof AppointmentBooked>>): Promise<void> {
    const p = event.payload;
    await processOnce(
      this.processed,
      "notifications.scheduling-appointment-booked",
      event,
      async () => {
        await tellPatient(this.notifications, this.ids, this.clock, {
          patientId: p.patientId,
          appointmentId: p.appointmentId,
          kind: "appointment-booked",
          title: "Appointment booked",
          body: `Your appointment is booked for ${whenText(p.startsAt)}.`,
        });
        await this.commands.execute(
          new PlanReminder(systemActor, p.appointmentId, p.patientId, p.startsAt),
        );
      },
    );
  }
}
